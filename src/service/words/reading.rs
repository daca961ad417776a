//! A player's text read one step at a time ("3 then deck", "lay blue 4 pawn 1, draw blue"):
//! cut at lines, commas, semicolons, full stops and "then"; but first, a step may be a choice's
//! own words exactly as [`super::saying`] says them in any language, commas and "and" included
//! ("take wish stone 6 with green 6 and yellow 6"), so that whatever the server shows a player
//! can be typed back. Otherwise the words up to the next cut are read by [`super::grammar`].

use super::grammar::{only_fillers, read_step, Step, Want, SEPARATORS};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    /// A cut: a separator word ("then", "and", ...) or punctuation and line ends (`None`).
    Cut(Option<String>),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    for line in text.lines() {
        let spaced: String = line
            .to_lowercase()
            .chars()
            .map(|c| match c {
                ',' | ';' | '.' | '+' | '&' | '/' => '\n',
                c if c.is_alphanumeric() || c == '\'' => c,
                _ => ' ',
            })
            .collect();
        for piece in spaced.split('\n') {
            for word in piece.split_whitespace() {
                tokens.push(if SEPARATORS.contains(&word) {
                    Token::Cut(Some(word.to_string()))
                } else {
                    Token::Word(word.to_string())
                });
            }
            tokens.push(Token::Cut(None));
        }
    }
    tokens
}

/// A choice's words as a step must say them: lowercase words, separator words kept,
/// punctuation left out.
pub fn phrase(words: &str) -> Vec<String> {
    tokens(words)
        .into_iter()
        .filter_map(|t| match t {
            Token::Word(w) | Token::Cut(Some(w)) => Some(w),
            Token::Cut(None) => None,
        })
        .collect()
}

/// A text being read.
pub struct Reading {
    tokens: Vec<Token>,
    at: usize,
    /// Typed moves: words that name no move are unreadable, not skipped (an email's greetings
    /// and chatter are skipped).
    strict: bool,
}

impl Reading {
    pub fn new(text: &str) -> Reading {
        Reading {
            tokens: tokens(text),
            at: 0,
            strict: false,
        }
    }

    /// A typed move: every word must belong to a step, but for fillers and courtesies.
    pub fn strict(text: &str) -> Reading {
        Reading {
            strict: true,
            ..Reading::new(text)
        }
    }

    /// Where `phrase` ends if the text from `from` says it exactly, up to a cut or the end.
    fn says(&self, from: usize, phrase: &[String]) -> Option<usize> {
        let mut at = from;
        for want in phrase {
            while self.tokens.get(at) == Some(&Token::Cut(None)) {
                at += 1;
            }
            match self.tokens.get(at)? {
                Token::Word(w) | Token::Cut(Some(w)) if w == want => at += 1,
                _ => return None,
            }
        }
        match self.tokens.get(at) {
            None | Some(Token::Cut(_)) => Some(at),
            Some(Token::Word(_)) => None,
        }
    }

    fn words(&self, from: usize, to: usize) -> String {
        self.tokens[from..to]
            .iter()
            .filter_map(|t| match t {
                Token::Word(w) | Token::Cut(Some(w)) => Some(w.as_str()),
                Token::Cut(None) => None,
            })
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The next step, given each choice's phrasings (`phrases[i]` for the choice numbered
    /// `i + 1`); `None` once the text is read.
    pub fn next_step(&mut self, phrases: &[Vec<Vec<String>>]) -> Option<Step> {
        loop {
            while matches!(self.tokens.get(self.at), Some(Token::Cut(_))) {
                self.at += 1;
            }
            let from = self.at;
            if from >= self.tokens.len() {
                return None;
            }
            // The longest phrase said exactly, if it is one choice's.
            let mut best: Option<(usize, Vec<usize>)> = None;
            for (i, phrasings) in phrases.iter().enumerate() {
                for end in phrasings.iter().filter_map(|p| self.says(from, p)) {
                    match &mut best {
                        Some((longest, _)) if end < *longest => {}
                        Some((longest, choices)) if end == *longest => {
                            if !choices.contains(&i) {
                                choices.push(i);
                            }
                        }
                        _ => best = Some((end, vec![i])),
                    }
                }
            }
            if let Some((end, choices)) = best {
                if let [only] = choices.as_slice() {
                    self.at = end;
                    return Some(Step {
                        said: self.words(from, end),
                        want: Want::Code(only + 1),
                    });
                }
            }
            let end = (from..self.tokens.len())
                .find(|&i| matches!(self.tokens[i], Token::Cut(_)))
                .unwrap_or(self.tokens.len());
            self.at = end;
            let said = self.words(from, end);
            if let Some(want) = read_step(&said) {
                return Some(Step { said, want });
            }
            if self.strict && !only_fillers(&said) {
                return Some(Step {
                    said,
                    want: Want::Unreadable,
                });
            }
        }
    }
}
