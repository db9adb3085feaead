//! Formulas in the question's symbols: reading them, writing them out for
//! `evalexpr`, evaluating them and comparing two of them.
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
use crate::quiz::numbers::{Float, Numbers};
use crate::quiz::SplitMix;
use crate::small::Join;

use super::scan::{superscript_digit, Scan};
use super::{clean, too_long};

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
    let ast = parse(text, symbols)?;
    let mut used = Vec::new();
    ast.symbols(&mut used);
    Ok(ReadFormula {
        expr: ast.expr(),
        used,
    })
}

/// A formula that is a ratio, `top / bottom` (an intensity: operations
/// over bytes), read in halves.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ratio {
    /// The numerator, for `evalexpr`.
    pub top: String,
    /// The numerator as the learner would write it (`2BDF`).
    pub top_shown: String,
    /// The denominator, for `evalexpr`.
    pub bottom: String,
    /// The denominator's summands, each for `evalexpr` and as shown (`DF`).
    pub terms: Vec<(String, String)>,
}

/// Reads `text` as a ratio; `None` unless it reads and its last operation
/// is a division.
pub(crate) fn read_ratio(text: &str, symbols: &[String]) -> Option<Ratio> {
    let Ast::Bin('/', top, bottom) = parse(text, symbols).ok()? else {
        return None;
    };
    let mut summands = Vec::new();
    bottom.summands(&mut summands);
    Some(Ratio {
        top: top.expr(),
        top_shown: top.shown(),
        bottom: bottom.expr(),
        terms: summands.iter().map(|t| (t.expr(), t.shown())).collect(),
    })
}

impl Ast {
    /// Fully parenthesised, for `evalexpr`.
    fn expr(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out
    }

    /// The terms of a sum (itself when it is not one).
    fn summands<'a>(&'a self, out: &mut Vec<&'a Ast>) {
        match self {
            Ast::Bin('+', a, b) => {
                a.summands(out);
                b.summands(out);
            }
            other => out.push(other),
        }
    }

    /// As a learner writes it: a product run together (`2BDF`), other
    /// operations spelt out.
    fn shown(&self) -> String {
        match self {
            Ast::Num(v) => sig(*v, 4),
            Ast::Sym(s) => s.clone(),
            Ast::Neg(a) => format!("-{}", a.shown_inner()),
            Ast::Bin('*', a, b) => format!("{}{}", a.shown_inner(), b.shown_inner()),
            Ast::Bin(op, a, b) => format!("{}{op}{}", a.shown_inner(), b.shown_inner()),
        }
    }

    /// [`Ast::shown`], in parentheses where it is a sum or difference.
    fn shown_inner(&self) -> String {
        match self {
            Ast::Bin('+' | '-', ..) => format!("({})", self.shown()),
            _ => self.shown(),
        }
    }
}

/// Parses a formula's text into its tree.
fn parse(text: &str, symbols: &[String]) -> Result<Ast, String> {
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
    Ok(ast)
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
