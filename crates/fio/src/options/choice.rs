//! Enumerated values: the words an option accepts, each with the typed value it stands for,
//! written once. Help, validation, "did you mean" and application all read the same list.

use std::fmt;

/// The words of an enumerated option and how the chosen one reaches its target `T` (the job
/// model for job options, the command line's switches for switches).
pub trait Choice<T>: Sync {
    /// The accepted words, in help order.
    fn words(&self) -> Vec<&'static str>;
    /// Store the value of `word` (already lower case). False when `word` is not one of ours.
    fn apply(&self, target: &mut T, word: &str) -> bool;
}

impl<T> fmt::Debug for dyn Choice<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.words()).finish()
    }
}

/// `(word, value)` pairs and the setter that stores a value: fio's `posval`, typed.
pub struct Choices<V: 'static, T: 'static> {
    pub words: &'static [(&'static str, V)],
    pub set: fn(&mut T, V),
}

impl<V: Copy + Sync, T> Choice<T> for Choices<V, T> {
    fn words(&self) -> Vec<&'static str> {
        self.words.iter().map(|(w, _)| *w).collect()
    }
    fn apply(&self, target: &mut T, word: &str) -> bool {
        match self.words.iter().find(|(w, _)| *w == word) {
            Some((_, v)) => {
                (self.set)(target, *v);
                true
            }
            None => false,
        }
    }
}

/// Words checked but not stored: options iomark ignores or does not implement yet, and those
/// whose setter reads the word itself.
pub struct Words(pub &'static [&'static str]);

impl<T> Choice<T> for Words {
    fn words(&self) -> Vec<&'static str> {
        self.0.to_vec()
    }
    fn apply(&self, _: &mut T, word: &str) -> bool {
        self.0.contains(&word)
    }
}

/// ` (did you mean 'x'?)` when `v` is close to one of `candidates`, else nothing.
pub fn did_you_mean(v: &str, candidates: &[&str]) -> String {
    super::nearest(v, candidates.iter().copied())
        .map(|s| {
            format!(
                " (did you mean {q_s}?)",
                q_s = iomark_output::echo::quote(s)
            )
        })
        .unwrap_or_default()
}

/// `a, b or c`, for messages.
pub fn or_list(words: &[&str]) -> String {
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Target(u8);

    static C: Choices<u8, Target> = Choices {
        words: &[("one", 1), ("two", 2)],
        set: |t, v| t.0 = v,
    };

    #[test]
    fn a_word_sets_its_value() {
        let mut t = Target::default();
        assert!(C.apply(&mut t, "two"));
        assert_eq!(t.0, 2);
        assert!(!C.apply(&mut t, "three"));
        assert_eq!(C.words(), ["one", "two"]);
        assert_eq!(or_list(&C.words()), "one or two");
        assert_eq!(or_list(&["a", "b", "c"]), "a, b or c");
    }
}
