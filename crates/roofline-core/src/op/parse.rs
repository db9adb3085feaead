//! Reading an operation in the book's notation: the parser, the rules
//! every operation must follow, and [`ParseError`], which says where the
//! text breaks them.

use std::cell::RefCell;
use std::fmt;
use std::str::FromStr;

use crate::format::clip;
use crate::{CoreError, DType};

use super::print::shape;
use super::{operand_name, single_input_kind, OpKind, Operand, Operation};

thread_local! {
    /// The last text [`Operation::parse`] read, and its reading.
    static LAST: RefCell<Option<(String, Result<Operation, ParseError>)>> = const { RefCell::new(None) };
    /// How many texts this thread has read (not answered from [`LAST`]).
    static PARSES: RefCell<u64> = const { RefCell::new(0) };
}

/// How many operation texts this thread has read so far: a text asked for
/// again right after is not read again.
pub fn parses() -> u64 {
    PARSES.with(|n| *n.borrow())
}

/// A problem found while reading an operation, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Index (counted in characters, from 0) of the character the problem
    /// starts at. The `Display` text counts from 1, as a person would.
    pub position: usize,
    /// What is wrong, ready to show.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.position + 1, self.message)
    }
}

impl std::error::Error for ParseError {}

impl From<ParseError> for CoreError {
    fn from(e: ParseError) -> CoreError {
        CoreError::Invalid(e.to_string())
    }
}

/// Where a problem sits inside an operation (operand `inputs.len()` is the output).
#[derive(Debug, Clone, Copy)]
enum Loc {
    Operand(usize),
    Dim(usize, usize),
}

fn is_ident(s: &str) -> bool {
    let mut c = s.chars();
    match c.next() {
        Some(first) if first.is_alphabetic() => c.all(|ch| ch.is_alphanumeric() || ch == '_'),
        _ => false,
    }
}

/// A dimension as the book writes it sharded, `B_X` or `D_XY`: its name
/// and the mesh axes it is split over (capitals after the last `_`, each
/// once, at most eight); `("B", "")` for `B`. `seq_len` and `D_FF` are
/// names of their own.
pub fn split_axes(written: &str) -> (&str, &str) {
    let b = written.as_bytes();
    if let Some(i) = b.iter().rposition(|&c| c == b'_') {
        let axes = &b[i + 1..];
        if is_ident(&written[..i])
            && (1..=8).contains(&axes.len())
            && axes
                .iter()
                .enumerate()
                .all(|(j, c)| c.is_ascii_uppercase() && !axes[..j].contains(c))
        {
            return (&written[..i], &written[i + 1..]);
        }
    }
    (written, "")
}

/// Names that read as non-numbers ("NaN", "inf", "Infinity") are refused.
fn reads_as_number(s: &str) -> bool {
    matches!(s.to_ascii_lowercase().as_str(), "nan" | "inf" | "infinity")
}

impl Operation {
    /// Reads an operation in the book's notation, such as
    /// `bf16[B,D] * int8[D,F] -> bf16[B,F]`.
    ///
    /// Besides the syntax it checks that every output dimension comes from an
    /// input, that no operand repeats a dimension, and that an elementwise
    /// operation has one shape throughout.
    ///
    /// An operation's text is read once: the last text and its reading are
    /// kept, so the link's check, the calculator's evaluation on every
    /// edit of another field and the link's writer, which all ask for the
    /// same text, share one reading ([`parses`] counts them).
    pub fn parse(text: &str) -> Result<Operation, ParseError> {
        LAST.with(|last| {
            if let Some((t, r)) = &*last.borrow() {
                if t == text {
                    return r.clone();
                }
            }
            let r = Operation::read(text);
            PARSES.with(|n| *n.borrow_mut() += 1);
            *last.borrow_mut() = Some((text.to_string(), r.clone()));
            r
        })
    }

    /// The reading itself (see [`Operation::parse`]).
    fn read(text: &str) -> Result<Operation, ParseError> {
        let mut p = Parser::new(text);
        p.skip_ws();
        if p.peek().is_none() {
            return Err(p.error(
                p.pos,
                "the operation is empty: write one such as bf16[B,D] * bf16[D,F] -> bf16[B,F]",
            ));
        }
        let mut parsed = vec![p.operand("an input")?];
        let mut first_op: Option<OpKind> = None;
        // The book's `*_D`: where each subscript starts, and its dimensions.
        let mut subscripts: Vec<(usize, Vec<String>)> = Vec::new();
        loop {
            p.skip_ws();
            let at = p.pos;
            let kind = match p.peek() {
                Some('-') if p.peek_at(1) == Some('>') => {
                    p.pos += 2;
                    break;
                }
                Some('→') => {
                    p.pos += 1;
                    break;
                }
                Some('*' | '.' | '·' | '×') => OpKind::Contraction,
                Some('+' | '-') => OpKind::Elementwise,
                None => {
                    return Err(p.error(
                        at,
                        "expected '->' and then the output, such as '-> bf16[B,F]'",
                    ))
                }
                Some(c) => {
                    return Err(p.error(
                        at,
                        format!("expected an operator (*, ., + or -) or '->', found '{c}'"),
                    ))
                }
            };
            match first_op {
                None => first_op = Some(kind),
                Some(k) if k != kind => {
                    return Err(p.error(
                        at,
                        "a contraction (*, .) and an elementwise operation (+, -) cannot be \
                         mixed in one operation: write them as two operations",
                    ))
                }
                Some(_) => {}
            }
            p.pos += 1;
            if kind == OpKind::Contraction && p.peek() == Some('_') {
                subscripts.push(p.subscript()?);
            }
            parsed.push(p.operand("an input after the operator")?);
        }
        let out = p.operand("the output after '->'")?;
        p.skip_ws();
        if let Some(c) = p.peek() {
            return Err(p.error(p.pos, format!("unexpected '{c}' after the output")));
        }
        let inputs: Vec<Operand> = parsed.iter().map(|o| o.operand.clone()).collect();
        let kind = match first_op {
            Some(k) => k,
            None => single_input_kind(&inputs, &out.operand),
        };
        let op = Operation {
            inputs,
            output: out.operand.clone(),
            kind,
            per_element: None,
        };
        parsed.push(out);
        match op.check() {
            Ok(()) => {
                check_subscripts(&op, &subscripts)?;
                Ok(op)
            }
            Err((loc, message)) => {
                let position = match loc {
                    Loc::Operand(i) => parsed.get(i).map(|o| o.start),
                    Loc::Dim(i, j) => parsed.get(i).and_then(|o| o.dim_pos.get(j).copied()),
                }
                .unwrap_or(0);
                Err(ParseError { position, message })
            }
        }
    }

    /// Checks the rules [`Operation::parse`] enforces, for an operation built
    /// by hand. The error names the operand.
    pub fn validate(&self) -> Result<(), CoreError> {
        self.check().map_err(|(_, m)| CoreError::Invalid(m))
    }

    fn check(&self) -> Result<(), (Loc, String)> {
        let n = self.inputs.len();
        if n == 0 {
            return Err((
                Loc::Operand(0),
                "an operation needs at least one input".to_string(),
            ));
        }
        for (i, o) in self.operands().enumerate() {
            for (j, d) in o.dims.iter().enumerate() {
                if !is_ident(d) {
                    return Err((
                        Loc::Dim(i, j),
                        format!(
                            "{}: '{}' is not a dimension name (a letter, then letters, digits or _)",
                            operand_name(i, n),
                            clip(d, 16)
                        ),
                    ));
                }
                if reads_as_number(d) {
                    // Shown back, such a name would read as a broken number.
                    return Err((
                        Loc::Dim(i, j),
                        format!(
                            "{}: a dimension cannot be named like a special number; pick another name",
                            operand_name(i, n)
                        ),
                    ));
                }
                if o.dims.iter().take(j).any(|e| e == d) {
                    return Err((
                        Loc::Dim(i, j),
                        format!(
                            "{}: dimension {d} appears twice; give each axis its own name",
                            operand_name(i, n)
                        ),
                    ));
                }
            }
        }
        for (j, d) in self.output.dims.iter().enumerate() {
            if !self.inputs.iter().any(|o| o.has(d)) {
                return Err((
                    Loc::Dim(n, j),
                    format!(
                        "output dimension {d} is in no input: every output dimension must come from an input"
                    ),
                ));
            }
        }
        if self.kind == OpKind::Elementwise {
            let first = &self.inputs[0].dims;
            for (i, o) in self.operands().enumerate().skip(1) {
                if &o.dims != first {
                    return Err((
                        Loc::Operand(i),
                        format!(
                            "an elementwise operation needs the same shape on every operand: \
                             {} is {} but operand 1 is {}",
                            if i >= n {
                                "the output".to_string()
                            } else {
                                operand_name(i, n)
                            },
                            shape(&o.dims),
                            shape(first)
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl FromStr for Operation {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Operation::parse(s)
    }
}

struct ParsedOperand {
    operand: Operand,
    start: usize,
    dim_pos: Vec<usize>,
}

/// The book's `A[B,D] *_D B[D,F]`: the dimensions the subscripts name
/// must be the ones the product sums over (in the inputs, not the output).
fn check_subscripts(op: &Operation, subscripts: &[(usize, Vec<String>)]) -> Result<(), ParseError> {
    let Some(&(at, _)) = subscripts.first() else {
        return Ok(());
    };
    let summed_owned = op.contracted_dims();
    let summed: Vec<&str> = summed_owned.iter().map(String::as_str).collect();
    let named: Vec<&str> = subscripts
        .iter()
        .flat_map(|(_, n)| n.iter().map(String::as_str))
        .collect();
    let over = |dims: &[&str]| match dims {
        [] => "no dimension".to_string(),
        [d] => d.to_string(),
        _ => dims.join(" and "),
    };
    let wrong = named.iter().find(|d| !summed.contains(d));
    let missing = summed.iter().find(|d| !named.contains(d));
    let message = match (wrong, missing) {
        (Some(d), _) => format!(
            "'_{d}' says the product sums over {d}, but it sums over {}: the dimension the inputs share and the output drops",
            over(&summed)
        ),
        (None, Some(d)) => format!(
            "the product also sums over {d} (in the inputs, not the output): name every summed dimension, as in *_{{{}}}",
            summed.join(",")
        ),
        (None, None) => return Ok(()),
    };
    Err(ParseError {
        position: at,
        message,
    })
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

impl Parser {
    fn new(text: &str) -> Parser {
        Parser {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    fn error(&self, position: usize, message: impl Into<String>) -> ParseError {
        ParseError {
            position,
            message: message.into(),
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(c) => format!("found '{c}'"),
            None => "found the end".to_string(),
        }
    }

    fn word(&mut self) -> String {
        let mut w = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' {
                w.push(c);
                self.pos += 1;
            } else {
                break;
            }
        }
        w
    }

    /// The book's subscript after a product's operator, `_D` or `_{D,E}`:
    /// where it starts and the dimensions it names.
    fn subscript(&mut self) -> Result<(usize, Vec<String>), ParseError> {
        let start = self.pos;
        self.pos += 1;
        let braced = self.peek() == Some('{');
        if braced {
            self.pos += 1;
        }
        let mut names = Vec::new();
        loop {
            if braced {
                self.skip_ws();
            }
            let at = self.pos;
            let name = self.word();
            if name.is_empty() {
                return Err(self.error(
                    at,
                    format!(
                        "'*_' names the dimension the product sums over, such as *_D; {}",
                        self.found()
                    ),
                ));
            }
            names.push(name);
            if !braced {
                break;
            }
            self.skip_ws();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some('}') => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    return Err(
                        self.error(self.pos, format!("expected ',' or '}}', {}", self.found()))
                    )
                }
            }
        }
        Ok((start, names))
    }

    fn operand(&mut self, what: &str) -> Result<ParsedOperand, ParseError> {
        self.skip_ws();
        let start = self.pos;
        let word = self.word();
        if word.is_empty() {
            return Err(self.error(
                start,
                format!(
                    "expected {what}: a data type and a shape, such as bf16[B,D]; {}",
                    self.found()
                ),
            ));
        }
        let dtype: DType = word.parse().map_err(|_| {
            self.error(
                start,
                format!(
                    "'{}' is not a data type (try fp32, bf16, fp16, fp8, int8, fp4 or int4)",
                    clip(&word, 16)
                ),
            )
        })?;
        self.skip_ws();
        if self.peek() != Some('[') {
            return Err(self.error(
                self.pos,
                format!(
                    "expected '[' after {dtype} to open the shape; {}",
                    self.found()
                ),
            ));
        }
        self.pos += 1;
        self.skip_ws();
        let mut dims = Vec::new();
        let mut axes: Vec<String> = Vec::new();
        let mut dim_pos = Vec::new();
        if self.peek() == Some(']') {
            self.pos += 1;
            return Ok(ParsedOperand {
                operand: Operand { dtype, dims, axes },
                start,
                dim_pos,
            });
        }
        loop {
            self.skip_ws();
            let at = self.pos;
            match self.peek() {
                Some(c) if c.is_alphabetic() => {}
                Some(c) if c.is_ascii_digit() => {
                    let w = self.word();
                    return Err(self.error(
                        at,
                        format!(
                            "'{}' is a number: name the dimension (such as B or D) and give its size separately",
                            clip(&w, 16)
                        ),
                    ));
                }
                _ => {
                    return Err(self.error(
                        at,
                        format!(
                            "expected a dimension name (a letter, then letters, digits or _); {}",
                            self.found()
                        ),
                    ))
                }
            }
            // `B_X` is B, sharded over X: counted as B.
            let w = self.word();
            let (name, on) = split_axes(&w);
            if !on.is_empty() {
                axes.resize(dims.len(), String::new());
                axes.push(on.to_string());
            }
            dims.push(name.to_string());
            dim_pos.push(at);
            self.skip_ws();
            match self.peek() {
                Some(',') => self.pos += 1,
                Some(']') => {
                    self.pos += 1;
                    break;
                }
                _ => {
                    return Err(
                        self.error(self.pos, format!("expected ',' or ']'; {}", self.found()))
                    )
                }
            }
        }
        Ok(ParsedOperand {
            operand: Operand { dtype, dims, axes },
            start,
            dim_pos,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
    use super::*;

    #[test]
    fn special_number_names_are_refused() {
        for t in [
            "fp32[NaN] -> fp32[]",
            "bf16[B,Infinity] * bf16[Infinity,F] -> bf16[B,F]",
            "fp32[inf]+fp32[inf]->fp32[inf]",
        ] {
            let e = Operation::parse(t).unwrap_err().to_string();
            assert!(
                !e.contains("NaN") && !e.contains("Infinity") && !e.contains("inf"),
                "{e}"
            );
        }
    }

    #[test]
    fn parses_the_chapter_examples() {
        let op = Operation::parse("bf16[B,D] * int8[D,F] -> bf16[B,F]").unwrap();
        assert_eq!(op.kind, OpKind::Contraction);
        assert_eq!(op.inputs[1].dtype, DType::Int8);
        assert_eq!(op.dims(), vec!["B", "D", "F"]);
        assert_eq!(op.contracted_dims(), vec!["D"]);
        assert_eq!(op.widest_input_dtype(), DType::Bf16);

        let dot = Operation::parse("  bf16 [ N ]·bf16[N]->bf16[ ]").unwrap();
        assert_eq!(dot.output.dims.len(), 0);
        assert_eq!(dot.notation(), "bf16[N] * bf16[N] -> bf16[]");

        let add = Operation::parse("fp32[N] - fp32[N] -> fp32[N]").unwrap();
        assert_eq!(add.kind, OpKind::Elementwise);
        assert_eq!(add.notation(), "fp32[N] + fp32[N] -> fp32[N]");
    }

    #[test]
    fn the_books_subscripted_product_reads() {
        for text in [
            "bf16[B,D] *_D bf16[D,F] -> bf16[B,F]",
            "bf16[B,D] *_{D} bf16[D,F] -> bf16[B,F]",
            "bf16[B,D] ·_{ D } bf16[D,F] -> bf16[B,F]",
        ] {
            let op = Operation::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(op.contracted_dims(), vec!["D"]);
            assert_eq!(op.notation(), "bf16[B,D] * bf16[D,F] -> bf16[B,F]");
        }
        let two = Operation::parse("bf16[B,D,E] *_{D,E} bf16[D,E,F] -> bf16[B,F]").unwrap();
        assert_eq!(two.contracted_dims(), vec!["D", "E"]);
        let e = Operation::parse("bf16[B,D] *_F bf16[D,F] -> bf16[B,F]").unwrap_err();
        assert_eq!(e.position, 11);
        assert!(e.message.contains("sums over D"), "{e}");
        assert!(!e.message.contains("data type"), "{e}");
        let e = Operation::parse("bf16[B,D,E] *_D bf16[D,E,F] -> bf16[B,F]").unwrap_err();
        assert!(e.message.contains("also sums over E"), "{e}");
        let e = Operation::parse("bf16[B,D] *_ bf16[D,F] -> bf16[B,F]").unwrap_err();
        assert!(e.message.contains("such as *_D"), "{e}");
        assert!(Operation::parse("bf16[B,D] *_{D bf16[D,F] -> bf16[B,F]").is_err());
    }

    /// The book's sharded notation counts as the whole operation: `B_X` is
    /// B (capitals after the last `_`, each once); `seq_len` and `D_FF` stay
    /// names; a problem is still placed at its dimension.
    #[test]
    fn sharded_dimensions_read_as_their_names() {
        let text = "bf16[B_X,D] * bf16[D,F_Y] -> bf16[B_X,F_Y]";
        let op = Operation::parse(text).unwrap();
        let plain = Operation::parse("bf16[B,D]*bf16[D,F]->bf16[B,F]").unwrap();
        assert_eq!(op.dims(), plain.dims());
        assert_eq!(op.notation(), text);
        assert_ne!(op, plain);
        let two = Operation::parse("bf16[B_X, D_XY] * bf16[D,F] -> bf16[B_X,F]").unwrap();
        assert_eq!(
            two.sharded(),
            vec![("B".into(), "X".into()), ("D".into(), "XY".into())]
        );
        assert_eq!(two.contracted_dims(), vec!["D"]);
        assert_eq!(split_axes("seq_len"), ("seq_len", ""));
        assert_eq!(split_axes("seq_len_Z"), ("seq_len", "Z"));
        assert_eq!(split_axes("D_FF"), ("D_FF", ""));
        assert_eq!(split_axes("B_x"), ("B_x", ""));
        assert_eq!(split_axes("_X"), ("_X", ""));
        assert!(plain.sharded().is_empty());
        let e = Operation::parse("bf16[B_X,B_Y] * bf16[B] -> bf16[B]").unwrap_err();
        assert_eq!(e.position, 9);
    }

    #[test]
    fn errors_say_where() {
        let e = Operation::parse("bf16[B,D * int8[D,F] -> bf16[B,F]").unwrap_err();
        assert_eq!(e.position, 9);
        assert!(e
            .to_string()
            .starts_with("at character 10: expected ',' or ']'"));

        let e = Operation::parse("bf16[B,D] * int8[D,F] -> bf16[B,K]").unwrap_err();
        assert_eq!(e.position, 32);
        assert!(e.message.contains("K"));

        let e = Operation::parse("bf16[B,D] * int8[D,F] + bf16[B,F] -> bf16[B,F]").unwrap_err();
        assert_eq!(e.position, 22);

        let e = Operation::parse("bf16[B,B] * bf16[B] -> bf16[B]").unwrap_err();
        assert_eq!(e.position, 7);

        let e = Operation::parse("fp32[N] + fp32[M] -> fp32[N]").unwrap_err();
        assert_eq!(e.position, 10);

        assert!(Operation::parse("bf17[N] * bf16[N] -> bf16[]").is_err());
        assert!(Operation::parse("bf16[N] * bf16[N]").is_err());
        assert!(Operation::parse("bf16[4096] -> bf16[]").is_err());
        assert!(Operation::parse("").is_err());
        assert!(Operation::parse("bf16[N] -> bf16[] extra").is_err());
    }
}
