//! A cursor over an answer's characters that reads number literals
//! (`1,000`, `1.97e14`, `× 10^14`, superscript powers), shared by the
//! readers of numbers and of formulas.

use crate::format::clip;

pub(super) fn superscript_digit(c: char) -> Option<char> {
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

pub(super) struct Scan<'a> {
    pub(super) c: &'a [char],
    pub(super) i: usize,
}

impl Scan<'_> {
    pub(super) fn peek(&self) -> Option<char> {
        self.c.get(self.i).copied()
    }

    pub(super) fn peek_at(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    pub(super) fn digit_at(&self, k: usize) -> bool {
        self.peek_at(k).is_some_and(|c| c.is_ascii_digit())
    }

    pub(super) fn skip_ws(&mut self) {
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
    pub(super) fn literal(&mut self, commas: bool) -> Result<String, String> {
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
    pub(super) fn times_ten(&mut self) -> Option<i32> {
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
