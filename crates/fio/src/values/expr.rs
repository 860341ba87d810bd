//! Arithmetic in option values: `(expr)` with `+ - * / % ^` and parentheses.

use super::ValueError;

pub(super) fn is_expr(s: &str) -> bool {
    s.starts_with('(') && s.ends_with(')')
}

/// Evaluate `(expr)` with `+ - * / % ^` and parentheses; each number (with any suffix) is
/// converted by `leaf`.
pub fn eval_expr(
    s: &str,
    leaf: &dyn Fn(&str) -> Result<f64, ValueError>,
) -> Result<f64, ValueError> {
    let mut p = ExprParser {
        s: s.as_bytes(),
        pos: 0,
        leaf,
        src: s,
        depth: 0,
    };
    let v = p.expr()?;
    p.skip_ws();
    if p.pos != p.s.len() {
        return Err(ValueError::ExprTrailing {
            rest: s.get(p.pos..).unwrap_or("").to_string(),
            expr: s.to_string(),
        });
    }
    if !v.is_finite() {
        return Err(ValueError::ExprNotFinite(s.to_string()));
    }
    Ok(v)
}

struct ExprParser<'a> {
    s: &'a [u8],
    pos: usize,
    leaf: &'a dyn Fn(&str) -> Result<f64, ValueError>,
    src: &'a str,
    /// Nesting of parentheses, signs and powers: bounded so hostile input cannot overflow the
    /// stack.
    depth: u32,
}

const MAX_EXPR_DEPTH: u32 = 256;

impl ExprParser<'_> {
    fn enter(&mut self) -> Result<(), ValueError> {
        self.depth += 1;
        if self.depth > MAX_EXPR_DEPTH {
            return Err(ValueError::ExprTooDeep {
                max: MAX_EXPR_DEPTH,
                expr: self.src.to_string(),
            });
        }
        Ok(())
    }
    fn power(&mut self) -> Result<f64, ValueError> {
        self.enter()?;
        let r = self.power_inner();
        self.depth -= 1;
        r
    }
    fn unary(&mut self) -> Result<f64, ValueError> {
        self.enter()?;
        let r = self.unary_inner();
        self.depth -= 1;
        r
    }
    fn skip_ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.s.get(self.pos).copied()
    }
    fn expr(&mut self) -> Result<f64, ValueError> {
        let mut v = self.term()?;
        while let Some(c @ (b'+' | b'-')) = self.peek() {
            self.pos += 1;
            let r = self.term()?;
            v = if c == b'+' { v + r } else { v - r };
        }
        Ok(v)
    }
    fn term(&mut self) -> Result<f64, ValueError> {
        let mut v = self.power()?;
        while let Some(c @ (b'*' | b'/' | b'%')) = self.peek() {
            self.pos += 1;
            let r = self.power()?;
            v = match c {
                b'*' => v * r,
                _ if r == 0.0 => return Err(ValueError::DivisionByZero(self.src.to_string())),
                b'/' => v / r,
                _ => v % r,
            };
        }
        Ok(v)
    }
    fn power_inner(&mut self) -> Result<f64, ValueError> {
        let base = self.unary()?;
        if self.peek() == Some(b'^') {
            self.pos += 1;
            let e = self.power()?;
            return Ok(base.powf(e));
        }
        Ok(base)
    }
    fn unary_inner(&mut self) -> Result<f64, ValueError> {
        match self.peek() {
            Some(b'-') => {
                self.pos += 1;
                Ok(-self.unary()?)
            }
            Some(b'+') => {
                self.pos += 1;
                self.unary()
            }
            Some(b'(') => {
                self.pos += 1;
                let v = self.expr()?;
                if self.peek() != Some(b')') {
                    return Err(ValueError::MissingParen(self.src.to_string()));
                }
                self.pos += 1;
                Ok(v)
            }
            Some(c) if c.is_ascii_alphanumeric() || c == b'.' => {
                let start = self.pos;
                while self.pos < self.s.len()
                    && (self.s[self.pos].is_ascii_alphanumeric() || self.s[self.pos] == b'.')
                {
                    self.pos += 1;
                }
                let tok = std::str::from_utf8(&self.s[start..self.pos]).unwrap_or("");
                (self.leaf)(tok)
            }
            _ => Err(ValueError::ExprNeedsNumber(self.src.to_string())),
        }
    }
}
