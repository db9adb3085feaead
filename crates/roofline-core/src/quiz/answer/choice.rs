//! The options of a multiple-choice part, and which one an answer picks.

use crate::small::Join;

use super::{clean, too_long};

/// One option of a multiple-choice part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChoiceOption {
    /// The text shown.
    pub label: String,
    /// Other ways of saying it (`compute`, `memory-bound`...), matched
    /// case-insensitively, ignoring punctuation and spaces.
    pub synonyms: Vec<String>,
}

impl ChoiceOption {
    /// An option with its synonyms.
    pub fn new(label: &str, synonyms: &[&str]) -> ChoiceOption {
        ChoiceOption {
            label: label.to_string(),
            synonyms: synonyms.iter().map(|s| s.to_string()).collect(),
        }
    }
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn words(s: &str) -> Vec<String> {
    s.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Which option an answer picks: the option's text or a synonym (ignoring
/// case, spaces and punctuation), an unambiguous start of one (`comp`), its
/// number (`1`), or a sentence that names exactly one option's key word.
pub fn match_choice(options: &[ChoiceOption], answer: &str) -> Result<usize, String> {
    let labels: Vec<String> = options.iter().map(|o| o.label.clone()).collect();
    let pick = || format!("Pick one of: {}.", labels.joined("; "));
    let cleaned = clean(answer);
    let t = cleaned.trim();
    if too_long(t) {
        return Err(format!("That answer is too long. {}", pick()));
    }
    let a = squash(t);
    if a.is_empty() {
        return Err(pick());
    }
    let keys: Vec<Vec<String>> = options
        .iter()
        .map(|o| {
            std::iter::once(squash(&o.label))
                .chain(o.synonyms.iter().map(|s| squash(s)))
                .filter(|k| !k.is_empty())
                .collect()
        })
        .collect();
    // 1. Exactly an option or a synonym.
    if let Some(i) = keys.iter().position(|ks| ks.contains(&a)) {
        return Ok(i);
    }
    // 2. The option's number.
    if let Ok(n) = a.parse::<usize>() {
        if (1..=options.len()).contains(&n) {
            return Ok(n - 1);
        }
    }
    // 3. The start of exactly one option.
    if a.chars().count() >= 3 {
        let starts: Vec<usize> = (0..keys.len())
            .filter(|&i| keys[i].iter().any(|k| k.starts_with(&a)))
            .collect();
        if let [only] = starts.as_slice() {
            return Ok(*only);
        }
    }
    // 4. A sentence naming one option's key word: the longest match wins.
    // A key counts if it appears squashed inside the answer (4 letters or
    // more) or as one of its words.
    let answer_words = words(t);
    let negations = [
        "not", "never", "no", "isn't", "isnt", "doesn't", "doesnt", "neither", "nor",
    ];
    let is_negation = |w: &str| negations.contains(&w);
    let mut best: Option<(usize, usize, bool)> = None;
    let mut tie = false;
    for (i, o) in options.iter().enumerate() {
        for phrase in std::iter::once(&o.label).chain(o.synonyms.iter()) {
            let k = squash(phrase);
            let len = k.chars().count();
            let found = (len >= 4 && a.contains(k.as_str())) || answer_words.contains(&k);
            if len == 0 || !found {
                continue;
            }
            let negated_key = words(phrase).iter().any(|w| is_negation(w));
            match best {
                Some((_, l, _)) if l > len => {}
                Some((j, l, _)) if l == len && j != i => tie = true,
                Some((j, l, _)) if l == len && j == i => {}
                _ => {
                    best = Some((i, len, negated_key));
                    tie = false;
                }
            }
        }
    }
    match best {
        Some((i, _, negated_key)) if !tie => {
            if !negated_key && answer_words.iter().any(|w| is_negation(w)) {
                Err(format!(
                    "Say which one it is rather than which it is not. {}",
                    pick()
                ))
            } else {
                Ok(i)
            }
        }
        Some(_) => Err(format!("That names more than one option. {}", pick())),
        None => Err(pick()),
    }
}
