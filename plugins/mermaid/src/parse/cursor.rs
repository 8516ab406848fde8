//! A position in the source text, with the helpers the statement parser needs and error
//! messages that name the line and column.

use quire_sdk::ConvertError;

pub(crate) struct Cursor {
    chars: Vec<char>,
    pub pos: usize,
}

impl Cursor {
    pub fn new(text: &str) -> Self {
        Cursor {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

    pub fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).copied()
    }

    pub fn char_at(&self, i: usize) -> Option<char> {
        self.chars.get(i).copied()
    }

    pub fn eof(&self) -> bool {
        self.pos >= self.chars.len()
    }

    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    pub fn starts_with(&self, s: &str) -> bool {
        self.starts_with_at(self.pos, s)
    }

    pub fn starts_with_at(&self, at: usize, s: &str) -> bool {
        s.chars()
            .enumerate()
            .all(|(k, c)| self.chars.get(at + k) == Some(&c))
    }

    pub fn eat(&mut self, s: &str) -> bool {
        if self.starts_with(s) {
            self.pos += s.chars().count();
            true
        } else {
            false
        }
    }

    /// Spaces and tabs (not line breaks).
    pub fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ' | '\t')) {
            self.pos += 1;
        }
    }

    /// Spaces, tabs and line breaks.
    pub fn skip_blank(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.pos += 1;
        }
    }

    pub fn slice(&self, from: usize, to: usize) -> String {
        self.chars[from.min(self.chars.len())..to.min(self.chars.len())]
            .iter()
            .collect()
    }

    /// Up to the end of the line (not included).
    pub fn rest_of_line(&mut self) -> String {
        let start = self.pos;
        while self.peek().is_some_and(|c| c != '\n') {
            self.pos += 1;
        }
        self.slice(start, self.pos)
    }

    /// Up to the end of the statement: a line break or `;` (not included).
    pub fn rest_of_statement(&mut self) -> String {
        let start = self.pos;
        while self.peek().is_some_and(|c| c != '\n' && c != ';') {
            self.pos += 1;
        }
        self.slice(start, self.pos)
    }

    /// The word (ASCII letters, digits, `_`, `-`) at the cursor, not consumed.
    pub fn word(&self) -> String {
        let mut i = self.pos;
        while self
            .chars
            .get(i)
            .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        {
            i += 1;
        }
        self.slice(self.pos, i)
    }

    /// Whether `keyword` is at the cursor followed by a space, a statement end or the end.
    pub fn at_keyword(&self, keyword: &str) -> bool {
        if !self.starts_with(keyword) {
            return false;
        }
        match self.char_at(self.pos + keyword.chars().count()) {
            None => true,
            Some(c) => c.is_whitespace() || c == ';',
        }
    }

    /// 1-based line and column of character index `at`.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let mut line = 1;
        let mut col = 1;
        for &c in &self.chars[..at.min(self.chars.len())] {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        (line, col)
    }

    /// A `Damaged` error naming the line and column of character index `at`.
    pub fn error_at(&self, at: usize, message: &str) -> ConvertError {
        let (line, col) = self.line_col(at);
        ConvertError::Damaged(format!("line {line}, column {col}: {message}"))
    }

    /// A `Damaged` error at the cursor.
    pub fn error(&self, message: &str) -> ConvertError {
        self.error_at(self.pos, message)
    }

    /// What the cursor is looking at, for error messages.
    pub fn describe_here(&self) -> String {
        match self.peek() {
            None => "the end of the text".to_string(),
            Some('\n') => "the end of the line".to_string(),
            Some(_) => {
                let s: String = self.chars[self.pos..].iter().take(12).collect();
                let s = s.split('\n').next().unwrap_or("");
                format!("`{s}`")
            }
        }
    }
}
