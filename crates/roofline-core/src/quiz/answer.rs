//! Reading a learner's answer: numbers with units, formulas, choices.
//!
//! Nothing here panics, whatever the text: every failure is an `Err` with a
//! message written for the learner (and never containing "NaN" or "inf").
//!
//! ## Numbers
//!
//! [`parse_number`] reads one number the way people write it: `1.97e14`,
//! `197e12`, `1.97E+14`, `1.97 × 10^14`, `1,000`, `1/12`, with a leading
//! `~`, `≈`, `about`, or a relation such as `B > 240`, and an optional unit
//! with a decimal prefix (`197 T`, `197 TFLOPs/s`, `0.5 ms`, `500 µs`,
//! `8.39 MB`). A number without a unit is taken in the part's base unit
//! (seconds, bytes, FLOPs/s...).
//!
//! ## Formulas
//!
//! [`normalise_formula`] reads a formula in the question's symbols and
//! writes it out fully parenthesised for the `evalexpr` crate. Writing
//! factors side by side multiplies them and binds tighter than `*` and `/`:
//! `2BDF` is `2*B*D*F`, and `2BDF/DF` is `2BDF/(DF)`. `·`, `×`, `÷`, `**`,
//! `−`, `[ ]` and superscript powers (`B²`) are understood; text before the
//! last `=` is ignored (`I = 2B` reads as `2B`). [`formulas_equivalent`]
//! evaluates two formulas with `evalexpr` at many pseudo-random points and
//! calls them equivalent when every relative difference is below 1e-9.

use evalexpr::{error::EvalexprResultValue, Context, EvalexprError, EvalexprResult, Node, Value};

use crate::format::{clip, sig};
use crate::num::parse_f64;
use crate::small::Join;

use super::numbers::{Float, Numbers};
use super::SplitMix;

/// The longest answer read; anything longer is refused with a message.
pub const MAX_ANSWER_CHARS: usize = 200;

/// The unit a numeric answer is measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    /// A plain number or a count (a batch size in tokens, a ratio).
    None,
    /// A time, in seconds.
    Seconds,
    /// An amount of data, in bytes.
    Bytes,
    /// A number of operations.
    Flops,
    /// A throughput, in FLOPs (or OPs) per second.
    FlopsPerSecond,
    /// A bandwidth, in bytes per second.
    BytesPerSecond,
    /// An arithmetic intensity, in FLOPs per byte.
    FlopsPerByte,
}

const LARGE_PREFIXES: &[(&str, f64)] = &[
    ("kilo", 1e3),
    ("mega", 1e6),
    ("giga", 1e9),
    ("tera", 1e12),
    ("peta", 1e15),
    ("Ki", 1024.0),
    ("Mi", 1_048_576.0),
    ("Gi", 1_073_741_824.0),
    ("Ti", 1_099_511_627_776.0),
    ("k", 1e3),
    ("K", 1e3),
    ("M", 1e6),
    ("G", 1e9),
    ("g", 1e9),
    ("T", 1e12),
    ("t", 1e12),
    ("P", 1e15),
    ("p", 1e15),
];

const SMALL_PREFIXES: &[(&str, f64)] = &[
    ("milli", 1e-3),
    ("micro", 1e-6),
    ("nano", 1e-9),
    ("pico", 1e-12),
    ("m", 1e-3),
    ("u", 1e-6),
    ("µ", 1e-6),
    ("μ", 1e-6),
    ("n", 1e-9),
    ("p", 1e-12),
];

impl Unit {
    /// Every unit.
    pub const ALL: [Unit; 7] = [
        Unit::None,
        Unit::Seconds,
        Unit::Bytes,
        Unit::Flops,
        Unit::FlopsPerSecond,
        Unit::BytesPerSecond,
        Unit::FlopsPerByte,
    ];

    /// The unit's symbol as shown after a number (empty for [`Unit::None`]).
    pub fn symbol(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Seconds => "s",
            Unit::Bytes => "bytes",
            Unit::Flops => "FLOPs",
            Unit::FlopsPerSecond => "FLOPs/s",
            Unit::BytesPerSecond => "bytes/s",
            Unit::FlopsPerByte => "FLOPs/byte",
        }
    }

    /// What the unit measures, for messages ("a time", "a number of bytes").
    pub fn describe(self) -> &'static str {
        match self {
            Unit::None => "a plain number",
            Unit::Seconds => "a time",
            Unit::Bytes => "a number of bytes",
            Unit::Flops => "a number of operations",
            Unit::FlopsPerSecond => "a rate in FLOPs/s",
            Unit::BytesPerSecond => "a bandwidth in bytes/s",
            Unit::FlopsPerByte => "an intensity in FLOPs/byte",
        }
    }

    /// How to write an answer in this unit, for messages.
    pub fn example(self) -> &'static str {
        match self {
            Unit::None => "240, ~240, 2.4e2 or B > 240",
            Unit::Seconds => "0.5 ms, 500 us, 500 µs or 5e-4 (seconds)",
            Unit::Bytes => "8.4e6, 8.4 MB or 8,400,000 bytes",
            Unit::Flops => "1.7e10, 17 GFLOPs",
            Unit::FlopsPerSecond => "1.97e14, 197e12, 197 T or 197 TFLOPs/s",
            Unit::BytesPerSecond => "8.2e11, 820 GB/s",
            Unit::FlopsPerByte => "240, ~240, 1/12 or 240 FLOPs/byte",
        }
    }

    fn words(self) -> &'static [&'static str] {
        match self {
            Unit::None => &["tokens", "token", "x", "×", "times"],
            Unit::Seconds => &["s", "sec", "secs", "second", "seconds"],
            Unit::Bytes => &["b", "byte", "bytes"],
            Unit::Flops => &["flop", "flops", "op", "ops", "operations"],
            Unit::FlopsPerSecond => &[
                "flop/s",
                "flops/s",
                "flop/sec",
                "flops/sec",
                "flops/second",
                "flopspersecond",
                "flops",
                "flop",
                "ops/s",
                "op/s",
                "ops/sec",
                "opspersecond",
                "ops",
            ],
            Unit::BytesPerSecond => &[
                "b/s",
                "byte/s",
                "bytes/s",
                "b/sec",
                "bytes/sec",
                "bytespersecond",
            ],
            Unit::FlopsPerByte => &[
                "flops/byte",
                "flop/byte",
                "flops/bytes",
                "flops/b",
                "flop/b",
                "ops/byte",
                "op/byte",
                "ops/b",
                "flopsperbyte",
                "opsperbyte",
            ],
        }
    }

    fn prefixes(self) -> &'static [(&'static str, f64)] {
        match self {
            Unit::Seconds => SMALL_PREFIXES,
            _ => LARGE_PREFIXES,
        }
    }

    /// The multiplier a unit text (whitespace removed) stands for, if it is a
    /// unit of this kind: `ms` is 1e-3 for seconds, `T` 1e12 for any larger
    /// quantity.
    fn multiplier(self, key: &str) -> Option<f64> {
        let lower = key.to_ascii_lowercase();
        if self.words().contains(&lower.as_str()) {
            return Some(1.0);
        }
        for (p, m) in self.prefixes() {
            let rest = if p.chars().count() > 2 {
                lower.strip_prefix(p).map(str::to_string)
            } else {
                key.strip_prefix(p).map(str::to_ascii_lowercase)
            };
            if let Some(rest) = rest {
                if rest.is_empty() || self.words().contains(&rest.as_str()) {
                    return Some(*m);
                }
            }
        }
        None
    }
}

/// A number read from an answer.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ReadNumber {
    /// The value in the part's base unit.
    pub value: f64,
    /// Whether the learner wrote a unit (or a prefix) after the number.
    pub unit_given: bool,
}

/// Reads one number written as a person writes it, in `unit` (see the
/// module documentation). A number without a unit is in the base unit
/// (seconds, bytes, ...). The error is a message for the learner.
pub fn parse_number(text: &str, unit: Unit) -> Result<f64, String> {
    read_number(text, unit).map(|n| n.value)
}

fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{2212}' | '\u{2013}' | '\u{2012}' => '-',
            '\u{00A0}' | '\u{2009}' | '\u{202F}' | '\u{2007}' => ' ',
            c => c,
        })
        .collect()
}

fn too_long(text: &str) -> bool {
    text.chars().count() > MAX_ANSWER_CHARS
}

const APPROX_WORDS: &[&str] = &[
    "approximately",
    "approx.",
    "approx",
    "about",
    "around",
    "roughly",
    "nearly",
    "circa",
    "ca.",
    "~",
    "≈",
    "≃",
    "∼",
];

const RELATIONS: &[char] = &['<', '>', '=', '≥', '≤', '≈', '~', '≃', '∼', ':'];

/// Checks that the text before the number is only a qualifier (`~`,
/// `about`) or a relation (`B >`, `batch size =`).
fn check_lead(lead: &str) -> Result<(), String> {
    let mut rest = lead.trim().to_ascii_lowercase();
    loop {
        let before = rest.clone();
        for w in APPROX_WORDS {
            if let Some(r) = rest.strip_prefix(w) {
                rest = r.trim_start().to_string();
            }
        }
        if let Some(pos) = rest.find(RELATIONS) {
            let name = &rest[..pos];
            if name
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ' ')
            {
                rest = rest[pos..]
                    .trim_start_matches(RELATIONS)
                    .trim_start()
                    .to_string();
            }
        }
        if rest == before {
            break;
        }
    }
    if rest.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "I could not read '{}' before the number: type just the number, such as 240, ~240 or B > 240.",
            clip(lead.trim(), 24)
        ))
    }
}

fn superscript_digit(c: char) -> Option<char> {
    let d = match c {
        '⁰' => '0',
        '¹' => '1',
        '²' => '2',
        '³' => '3',
        '⁴' => '4',
        '⁵' => '5',
        '⁶' => '6',
        '⁷' => '7',
        '⁸' => '8',
        '⁹' => '9',
        _ => return None,
    };
    Some(d)
}

struct Scan<'a> {
    c: &'a [char],
    i: usize,
}

impl Scan<'_> {
    fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    fn digit_at(&self, k: usize) -> bool {
        self.peek_at(k).is_some_and(|c| c.is_ascii_digit())
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.i += 1;
        }
    }

    fn digits(&mut self, out: &mut String) {
        while let Some(c) = self.peek().filter(char::is_ascii_digit) {
            out.push(c);
            self.i += 1;
        }
    }

    /// `digits[.digits][e[+-]digits]`, with thousands commas in the integer
    /// part when `commas` is set.
    fn literal(&mut self, commas: bool) -> Result<String, String> {
        let mut int = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_digit() {
                int.push(c);
                self.i += 1;
            } else if commas && c == ',' && self.digit_at(1) {
                int.push(',');
                self.i += 1;
            } else {
                break;
            }
        }
        if int.contains(',') {
            let groups: Vec<&str> = int.split(',').collect();
            let ok = groups.iter().enumerate().all(|(k, g)| {
                if k == 0 {
                    (1..=3).contains(&g.len())
                } else {
                    g.len() == 3
                }
            });
            if !ok {
                return Err(format!(
                    "'{}' is not a number I can read: use a point for decimals (1.5) and commas only between groups of three digits (1,000).",
                    clip(&int, 20)
                ));
            }
        }
        let mut s: String = int.chars().filter(|c| *c != ',').collect();
        if self.peek() == Some('.') && (self.digit_at(1) || !s.is_empty()) {
            s.push('.');
            self.i += 1;
            self.digits(&mut s);
        }
        let exp_here = matches!(self.peek(), Some('e' | 'E'))
            && (self.digit_at(1)
                || (matches!(self.peek_at(1), Some('+' | '-')) && self.digit_at(2)));
        if exp_here {
            s.push('e');
            self.i += 1;
            if let Some(sign @ ('+' | '-')) = self.peek() {
                s.push(sign);
                self.i += 1;
            }
            self.digits(&mut s);
        }
        Ok(s)
    }

    /// An optional `× 10^14` (or `x10**14`, `*10^-3`, `·10¹⁴`) after a
    /// mantissa; returns the power of ten.
    fn times_ten(&mut self) -> Option<i32> {
        let save = self.i;
        self.skip_ws();
        if matches!(self.peek(), Some('x' | 'X' | '×' | '*' | '·' | '⋅')) {
            self.i += 1;
            self.skip_ws();
            if self.peek() == Some('1') && self.peek_at(1) == Some('0') {
                self.i += 2;
                if let Some(e) = self.power() {
                    return Some(e);
                }
            }
        }
        self.i = save;
        None
    }

    /// `^n`, `**n` or superscript digits.
    fn power(&mut self) -> Option<i32> {
        let save = self.i;
        let mut text = String::new();
        if self.peek() == Some('^') {
            self.i += 1;
        } else if self.peek() == Some('*') && self.peek_at(1) == Some('*') {
            self.i += 2;
        } else if matches!(self.peek(), Some('⁻'))
            || self.peek().and_then(superscript_digit).is_some()
        {
            if self.peek() == Some('⁻') {
                text.push('-');
                self.i += 1;
            }
            while let Some(d) = self.peek().and_then(superscript_digit) {
                text.push(d);
                self.i += 1;
            }
            return text.parse().ok().or_else(|| {
                self.i = save;
                None
            });
        } else {
            return None;
        }
        if let Some(sign @ ('+' | '-')) = self.peek() {
            text.push(sign);
            self.i += 1;
        }
        self.digits(&mut text);
        match text.parse::<i32>() {
            Ok(e) => Some(e),
            Err(_) => {
                self.i = save;
                None
            }
        }
    }
}

/// Reads a number with its unit (see [`parse_number`]).
pub(crate) fn read_number(text: &str, unit: Unit) -> Result<ReadNumber, String> {
    let cleaned = clean(text);
    let t = cleaned.trim();
    if t.is_empty() {
        return Err(format!("Type a number, such as {}.", unit.example()));
    }
    if too_long(t) {
        return Err(
            "That answer is too long: type just the number and, if you like, its unit.".to_string(),
        );
    }
    let chars: Vec<char> = t.chars().collect();
    let start = (0..chars.len()).find(|&i| {
        chars[i].is_ascii_digit()
            || (chars[i] == '.' && chars.get(i + 1).is_some_and(|c| c.is_ascii_digit()))
    });
    let Some(start) = start else {
        return Err(format!(
            "I could not find a number in '{}'. Write one such as {}.",
            clip(t, 24),
            unit.example()
        ));
    };
    let (lead_end, sign) = match start.checked_sub(1).and_then(|k| chars.get(k)) {
        Some('-') => (start - 1, -1.0),
        Some('+') => (start - 1, 1.0),
        _ => (start, 1.0),
    };
    let lead: String = chars[..lead_end].iter().collect();
    check_lead(&lead)?;
    let mut s = Scan {
        c: &chars,
        i: start,
    };
    let mantissa = s.literal(true)?;
    let mut value = parse_f64(&mantissa)
        .ok_or_else(|| format!("'{}' is not a number I can read.", clip(&mantissa, 24)))?;
    if let Some(e) = s.times_ten() {
        value *= 10f64.powi(e);
    }
    // A fraction: `1/12`.
    let save = s.i;
    s.skip_ws();
    if s.peek() == Some('/') {
        s.i += 1;
        s.skip_ws();
        if s.digit_at(0) || (s.peek() == Some('.') && s.digit_at(1)) {
            let den_text = s.literal(false)?;
            let den = parse_f64(&den_text).unwrap_or(0.0);
            if den == 0.0 || !den.is_finite() {
                return Err("A fraction needs a denominator that is not zero.".to_string());
            }
            value /= den;
        } else {
            s.i = save;
        }
    } else {
        s.i = save;
    }
    let suffix: String = chars[s.i..].iter().collect();
    let key: String = suffix
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .trim_end_matches(['.', '!'])
        .to_string();
    let (mult, unit_given) = if key.is_empty() {
        (1.0, false)
    } else if let Some(m) = unit.multiplier(&key) {
        (m, true)
    } else if let Some(other) = Unit::ALL
        .into_iter()
        .find(|u| *u != unit && u.multiplier(&key).is_some())
    {
        return Err(format!(
            "This part asks for {}, but '{}' is a unit of {}. Write it as {}.",
            unit.describe(),
            clip(suffix.trim(), 16),
            other.describe(),
            unit.example()
        ));
    } else {
        return Err(format!(
            "I could not read '{}' after the number. Type one number, such as {}.",
            clip(suffix.trim(), 24),
            unit.example()
        ));
    };
    let v = sign * value * mult;
    if !v.is_finite() {
        return Err("That number is too large to work with.".to_string());
    }
    Ok(ReadNumber {
        value: v,
        unit_given,
    })
}

/// A parsed formula.
#[derive(Debug, Clone, PartialEq)]
enum Ast {
    Num(f64),
    Sym(String),
    Neg(Box<Ast>),
    Bin(char, Box<Ast>, Box<Ast>),
}

impl Ast {
    fn write(&self, out: &mut String) {
        match self {
            Ast::Num(v) => out.push_str(&format!("{v:e}")),
            Ast::Sym(s) => out.push_str(s),
            Ast::Neg(a) => {
                out.push_str("(-");
                a.write(out);
                out.push(')');
            }
            Ast::Bin(op, a, b) => {
                out.push('(');
                a.write(out);
                out.push(' ');
                out.push(*op);
                out.push(' ');
                b.write(out);
                out.push(')');
            }
        }
    }

    fn symbols(&self, out: &mut Vec<String>) {
        match self {
            Ast::Num(_) => {}
            Ast::Sym(s) => {
                if !out.contains(s) {
                    out.push(s.clone());
                }
            }
            Ast::Neg(a) => a.symbols(out),
            Ast::Bin(_, a, b) => {
                a.symbols(out);
                b.symbols(out);
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(f64),
    Sym(String),
    Op(char),
    Open,
    Close,
}

const MAX_DEPTH: usize = 40;

fn symbol_list(symbols: &[String]) -> String {
    match symbols.len() {
        0 => "no symbol".to_string(),
        1 => symbols.concat(),
        n => format!("{} or {}", symbols[..n - 1].joined(", "), symbols[n - 1]),
    }
}

/// Maps one letter to a symbol: itself, or (if unambiguous) the other case.
fn letter_symbol(c: char, symbols: &[String]) -> Option<String> {
    let s = c.to_string();
    if symbols.contains(&s) {
        return Some(s);
    }
    // ASCII only: formula symbols are ASCII letters.
    let flipped: String = if c.is_ascii_uppercase() {
        c.to_ascii_lowercase().to_string()
    } else {
        c.to_ascii_uppercase().to_string()
    };
    symbols.contains(&flipped).then_some(flipped)
}

fn tokenize(text: &str, symbols: &[String]) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut s = Scan { c: &chars, i: 0 };
    let mut toks = Vec::new();
    while let Some(c) = s.peek() {
        if c.is_whitespace() {
            s.i += 1;
        } else if c.is_ascii_digit() || (c == '.' && s.digit_at(1)) {
            let lit = s.literal(false)?;
            let v = parse_f64(&lit)
                .ok_or_else(|| format!("'{}' is not a number I can read.", clip(&lit, 16)))?;
            if !v.is_finite() {
                return Err("A number in the formula is too large.".to_string());
            }
            toks.push(Tok::Num(v));
        } else if c.is_alphabetic() {
            let from = s.i;
            while s.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
                s.i += 1;
            }
            let word: String = chars[from..s.i].iter().collect();
            if symbols.contains(&word) {
                toks.push(Tok::Sym(word));
                continue;
            }
            let mut letters = Vec::new();
            for ch in word.chars() {
                match letter_symbol(ch, symbols) {
                    Some(sym) => letters.push(Tok::Sym(sym)),
                    None => {
                        let shown = if word.chars().count() > 1 && ch != '_' {
                            word.clone()
                        } else {
                            ch.to_string()
                        };
                        return Err(format!(
                            "The answer uses '{}', which is not one of {}.",
                            clip(&shown, 16),
                            symbol_list(symbols)
                        ));
                    }
                }
            }
            toks.extend(letters);
        } else if let Some(d) = superscript_digit(c).or(if c == '⁻' { Some('-') } else { None }) {
            let mut text = String::new();
            text.push(d);
            s.i += 1;
            while let Some(d) = s.peek().and_then(superscript_digit) {
                text.push(d);
                s.i += 1;
            }
            let v =
                parse_f64(&text).ok_or_else(|| "A superscript power needs digits.".to_string())?;
            toks.push(Tok::Op('^'));
            toks.push(Tok::Num(v));
        } else {
            let tok = match c {
                '+' => Tok::Op('+'),
                '-' | '\u{2212}' | '\u{2013}' => Tok::Op('-'),
                '*' if s.peek_at(1) == Some('*') => {
                    s.i += 1;
                    Tok::Op('^')
                }
                '*' | '×' | '·' | '⋅' | '∙' => Tok::Op('*'),
                '/' | '÷' => Tok::Op('/'),
                '^' => Tok::Op('^'),
                '(' | '[' | '{' => Tok::Open,
                ')' | ']' | '}' => Tok::Close,
                other => {
                    return Err(format!(
                        "'{other}' cannot be read in a formula: use {}, numbers, + - * / ^ and parentheses.",
                        symbol_list(symbols)
                    ))
                }
            };
            toks.push(tok);
            s.i += 1;
        }
    }
    Ok(toks)
}

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    depth: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos)
    }

    fn enter(&mut self) -> Result<(), String> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err("The formula is nested too deeply to read.".to_string())
        } else {
            Ok(())
        }
    }

    fn expr(&mut self) -> Result<Ast, String> {
        self.enter()?;
        let mut left = self.term()?;
        while let Some(Tok::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let right = self.term()?;
            left = Ast::Bin(op, Box::new(left), Box::new(right));
        }
        self.depth -= 1;
        Ok(left)
    }

    fn term(&mut self) -> Result<Ast, String> {
        let mut left = self.unary()?;
        while let Some(Tok::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let right = self.unary()?;
            left = Ast::Bin(op, Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn unary(&mut self) -> Result<Ast, String> {
        self.enter()?;
        let out = match self.peek() {
            Some(Tok::Op('-')) => {
                self.pos += 1;
                Ast::Neg(Box::new(self.unary()?))
            }
            Some(Tok::Op('+')) => {
                self.pos += 1;
                self.unary()?
            }
            _ => self.juxtaposed()?,
        };
        self.depth -= 1;
        Ok(out)
    }

    /// Factors written side by side: `2BDF`, `B(D+F)`, `B²D`.
    fn juxtaposed(&mut self) -> Result<Ast, String> {
        let mut left = self.power()?;
        while matches!(self.peek(), Some(Tok::Num(_) | Tok::Sym(_) | Tok::Open)) {
            let right = self.power()?;
            left = Ast::Bin('*', Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn power(&mut self) -> Result<Ast, String> {
        let base = self.atom()?;
        if let Some(Tok::Op('^')) = self.peek() {
            self.pos += 1;
            self.enter()?;
            let exp = match self.peek() {
                Some(Tok::Op('-')) => {
                    self.pos += 1;
                    Ast::Neg(Box::new(self.power()?))
                }
                _ => self.power()?,
            };
            self.depth -= 1;
            return Ok(Ast::Bin('^', Box::new(base), Box::new(exp)));
        }
        Ok(base)
    }

    fn atom(&mut self) -> Result<Ast, String> {
        match self.peek().cloned() {
            Some(Tok::Num(v)) => {
                self.pos += 1;
                Ok(Ast::Num(v))
            }
            Some(Tok::Sym(s)) => {
                self.pos += 1;
                Ok(Ast::Sym(s))
            }
            Some(Tok::Open) => {
                self.pos += 1;
                let inner = self.expr()?;
                match self.peek() {
                    Some(Tok::Close) => {
                        self.pos += 1;
                        Ok(inner)
                    }
                    _ => Err("A parenthesis is opened but never closed.".to_string()),
                }
            }
            Some(Tok::Close) => Err("There is a ')' with nothing before it to close.".to_string()),
            Some(Tok::Op(op)) => Err(format!(
                "'{op}' needs something on both sides (write 2*B, not 2*)."
            )),
            None => Err(
                "The formula ends too early: something is missing after the last operator."
                    .to_string(),
            ),
        }
    }
}

/// A formula read from text: the `evalexpr` string and the symbols it uses.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ReadFormula {
    /// Fully parenthesised, for `evalexpr`.
    pub expr: String,
    /// The question symbols that appear, in order of appearance.
    pub used: Vec<String>,
}

/// Reads a formula (see [`normalise_formula`]).
pub(crate) fn read_formula(text: &str, symbols: &[String]) -> Result<ReadFormula, String> {
    let cleaned = clean(text);
    let t = cleaned.trim();
    if t.is_empty() {
        return Err(format!(
            "Type a formula in {}, such as 2*B*D*F or 2BDF.",
            symbol_list(symbols)
        ));
    }
    if too_long(t) {
        return Err("That formula is too long to read.".to_string());
    }
    let body = match t.rfind(['=', '≈']) {
        Some(pos) => t[pos..].trim_start_matches(['=', '≈']).trim(),
        None => t,
    };
    if body.is_empty() {
        return Err("There is nothing after the '='.".to_string());
    }
    let toks = tokenize(body, symbols)?;
    let mut p = Parser {
        toks,
        pos: 0,
        depth: 0,
    };
    let ast = p.expr()?;
    if let Some(tok) = p.peek() {
        let what = match tok {
            Tok::Close => "a ')' that closes nothing".to_string(),
            _ => "something after the end".to_string(),
        };
        return Err(format!("The formula has {what}: check the parentheses."));
    }
    let mut expr = String::new();
    ast.write(&mut expr);
    let mut used = Vec::new();
    ast.symbols(&mut used);
    Ok(ReadFormula { expr, used })
}

/// Reads a formula in `symbols` and writes it fully parenthesised for
/// `evalexpr` (`2BDF` becomes `(((2e0 * B) * D) * F)`). The error is a
/// message for the learner; an unknown letter gives "The answer uses 'X',
/// which is not one of B, D or F."
pub fn normalise_formula(text: &str, symbols: &[String]) -> Result<String, String> {
    read_formula(text, symbols).map(|f| f.expr)
}

/// A formula compiled by `evalexpr`, ready to evaluate many times.
pub(crate) struct Compiled {
    node: Node<Numbers>,
}

impl Compiled {
    pub(crate) fn new(expr: &str) -> Result<Compiled, String> {
        evalexpr::build_operator_tree::<Numbers>(expr)
            .map(|node| Compiled { node })
            .map_err(|_| "The formula could not be read.".to_string())
    }

    /// The value at the given symbol values (non-finite results allowed).
    pub(crate) fn eval(&self, values: &[(String, f64)]) -> Result<f64, String> {
        self.node
            .eval_number_with_context(&Symbols(
                values
                    .iter()
                    .map(|(k, v)| (k.as_str(), Value::Float(Float(*v))))
                    .collect(),
            ))
            .map(|f| f.0)
            .map_err(|_| "The formula could not be evaluated.".to_string())
    }
}

/// The evaluation context: the symbols' values and nothing else. Formulas
/// are plain arithmetic ([`read_formula`] admits no function names), so
/// builtin functions are off for good. Because that answer is a constant
/// of this type, the compiler drops evalexpr's builtin functions (and the
/// trigonometry they pull in) from the wasm; with `HashMapContext` gone
/// too, about 23 KB gzip.
struct Symbols<'a>(Vec<(&'a str, Value<Numbers>)>);

impl Context for Symbols<'_> {
    type NumericTypes = Numbers;

    fn get_value(&self, identifier: &str) -> Option<&Value<Numbers>> {
        self.0
            .iter()
            .find(|(k, _)| *k == identifier)
            .map(|(_, v)| v)
    }

    fn call_function(
        &self,
        identifier: &str,
        _argument: &Value<Numbers>,
    ) -> EvalexprResultValue<Numbers> {
        Err(EvalexprError::FunctionIdentifierNotFound(
            identifier.to_string(),
        ))
    }

    fn are_builtin_functions_disabled(&self) -> bool {
        true
    }

    fn set_builtin_functions_disabled(&mut self, disabled: bool) -> EvalexprResult<(), Numbers> {
        if disabled {
            Ok(())
        } else {
            Err(EvalexprError::BuiltinFunctionsCannotBeEnabled)
        }
    }
}

/// Evaluates a formula in `symbols` at the given values.
pub fn evaluate_formula(
    text: &str,
    symbols: &[String],
    values: &[(String, f64)],
) -> Result<f64, String> {
    let f = read_formula(text, symbols)?;
    Compiled::new(&f.expr)?.eval(values)
}

/// How many random points [`formulas_equivalent`] compares at.
pub const POINTS: usize = 24;

/// The relative difference two values may have at every point.
pub const FORMULA_TOL: f64 = 1e-9;

/// Random points for the symbols: each value log-uniform in [2, 5000],
/// from a fixed seed (so a verdict never changes between runs).
pub(crate) fn points(symbols: &[String]) -> Vec<Vec<(String, f64)>> {
    let mut rng = SplitMix::new(0x5EED_F0E7_A11A_0001);
    let (lo, hi) = (2f64.ln(), 5000f64.ln());
    (0..POINTS)
        .map(|_| {
            symbols
                .iter()
                .map(|s| (s.clone(), (lo + (hi - lo) * rng.unit()).exp()))
                .collect()
        })
        .collect()
}

/// How an answer formula compares with the expected one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Comparison {
    /// Equal at every point.
    Same,
    /// A constant multiple of the expected formula (the factor).
    Factor(f64),
    /// Different.
    Different,
}

fn rel_diff(a: f64, b: f64) -> f64 {
    let scale = a.abs().max(b.abs());
    if scale == 0.0 {
        0.0
    } else {
        (a - b).abs() / scale
    }
}

/// Compares two compiled formulas at the random points.
pub(crate) fn compare(
    answer: &Compiled,
    expected: &Compiled,
    symbols: &[String],
) -> Result<Comparison, String> {
    let mut ratios = Vec::new();
    let mut same = true;
    for pt in points(symbols) {
        let e = expected.eval(&pt)?;
        if !e.is_finite() {
            continue;
        }
        let a = answer.eval(&pt)?;
        if !a.is_finite() {
            return Ok(Comparison::Different);
        }
        if rel_diff(a, e) >= FORMULA_TOL {
            same = false;
        }
        ratios.push(if e == 0.0 { f64::NAN } else { a / e });
    }
    if ratios.is_empty() {
        return Err("The expected formula cannot be evaluated.".to_string());
    }
    if same {
        return Ok(Comparison::Same);
    }
    let k = ratios[0];
    if k.is_finite()
        && k != 0.0
        && ratios
            .iter()
            .all(|r| r.is_finite() && rel_diff(*r, k) < 1e-9)
    {
        return Ok(Comparison::Factor(k));
    }
    Ok(Comparison::Different)
}

/// Whether two formulas in `symbols` are equal at every one of [`POINTS`]
/// pseudo-random points (relative difference below [`FORMULA_TOL`]). An
/// error if either cannot be read.
pub fn formulas_equivalent(a: &str, b: &str, symbols: &[String]) -> Result<bool, String> {
    let fa = Compiled::new(&read_formula(a, symbols)?.expr)?;
    let fb = Compiled::new(&read_formula(b, symbols)?.expr)?;
    Ok(compare(&fa, &fb, symbols)? == Comparison::Same)
}

/// A factor for a message: `2`, `0.5`, `3.94e14`.
pub(crate) fn factor_text(k: f64) -> String {
    if (0.01..10_000.0).contains(&k.abs()) {
        sig(k, 3)
    } else {
        crate::format::sci(k)
    }
}

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

#[cfg(test)]
mod tests {
    use super::Compiled;

    fn at(expr: &str, values: &[(&str, f64)]) -> Result<f64, String> {
        let values: Vec<(String, f64)> = values.iter().map(|(k, v)| (k.to_string(), *v)).collect();
        Compiled::new(expr)?.eval(&values)
    }

    #[test]
    fn evaluates_arithmetic_in_the_symbols() {
        assert_eq!(
            at(
                "(((2e0 * B) * D) * F)",
                &[("B", 3.0), ("D", 5.0), ("F", 7.0)]
            ),
            Ok(210.0)
        );
        assert_eq!(at("((B ^ 2e0) / D)", &[("B", 3.0), ("D", 2.0)]), Ok(4.5));
    }

    #[test]
    fn unknown_symbols_and_functions_do_not_evaluate() {
        assert!(at("(B * X)", &[("B", 3.0)]).is_err());
        // Builtin functions are off: the context admits only symbols.
        assert!(at("min(B, 2e0)", &[("B", 3.0)]).is_err());
        assert!(at("math::sin(B)", &[("B", 3.0)]).is_err());
    }
}
