//! Learn progress as stored in the browser: which steps have been opened
//! and which one was open last, in a small text format under a versioned
//! key.
//!
//! Format: `seen=1,2,3;last=3`. Anything that does not fit is skipped, so
//! garbage in storage yields empty or partial progress, never an error.

use super::STEP_COUNT;

/// The localStorage key. A new format gets a new key.
pub const LEARN_PROGRESS_KEY: &str = "roofline-lab/learn-progress/v1";

/// Longest stored text read (larger values are treated as garbage).
const MAX_LEN: usize = 1024;

/// The steps seen and the last one open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LearnProgress {
    /// Bit `n - 1` is set when step `n` has been opened.
    seen: u32,
    /// The step open last, if any (from 1).
    last: Option<u32>,
}

fn step_number(s: &str) -> Option<u32> {
    s.trim()
        .parse::<u32>()
        .ok()
        .filter(|n| (1..=STEP_COUNT).contains(n))
}

impl LearnProgress {
    /// Reads stored text; whatever cannot be read is skipped.
    pub fn parse(text: &str) -> LearnProgress {
        let mut p = LearnProgress::default();
        if text.len() > MAX_LEN {
            return p;
        }
        for entry in text.split(';') {
            match entry.split_once('=') {
                Some(("seen", list)) => {
                    for n in list.split(',').filter_map(step_number) {
                        p.seen |= 1 << (n - 1);
                    }
                }
                Some(("last", n)) => p.last = step_number(n),
                _ => {}
            }
        }
        p
    }

    /// The text to store.
    pub fn to_text(&self) -> String {
        let seen: Vec<String> = (1..=STEP_COUNT)
            .filter(|n| self.is_seen(*n))
            .map(|n| n.to_string())
            .collect();
        let mut out = format!("seen={}", seen.join(","));
        if let Some(l) = self.last {
            out.push_str(&format!(";last={l}"));
        }
        out
    }

    /// Records step `n` as opened (and the last one open). Out-of-range
    /// numbers are ignored.
    pub fn open(&mut self, n: u32) {
        if (1..=STEP_COUNT).contains(&n) {
            self.seen |= 1 << (n - 1);
            self.last = Some(n);
        }
    }

    /// Whether step `n` has been opened.
    pub fn is_seen(&self, n: u32) -> bool {
        (1..=STEP_COUNT).contains(&n) && self.seen & (1 << (n - 1)) != 0
    }

    /// How many steps have been opened.
    pub fn seen_count(&self) -> u32 {
        self.seen.count_ones()
    }

    /// The step open last, if any.
    pub fn last(&self) -> Option<u32> {
        self.last
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn round_trips() {
        let mut p = LearnProgress::default();
        assert_eq!(p.to_text(), "seen=");
        p.open(3);
        p.open(1);
        assert_eq!(p.to_text(), "seen=1,3;last=1");
        assert_eq!(LearnProgress::parse(&p.to_text()), p);
        assert_eq!(p.seen_count(), 2);
        assert!(p.is_seen(3) && !p.is_seen(2));
    }

    #[test]
    fn garbage_is_skipped() {
        let p = LearnProgress::parse("seen=0,2,x,99,8;last=42;<script>;=;seen");
        assert!(p.is_seen(2) && p.is_seen(8));
        assert_eq!(p.seen_count(), 2);
        assert_eq!(p.last(), None);
        assert_eq!(
            LearnProgress::parse(&"x".repeat(5000)),
            LearnProgress::default()
        );
        let mut q = p;
        q.open(0);
        q.open(STEP_COUNT + 1);
        assert_eq!(q, p);
    }
}
