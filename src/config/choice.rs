//! The config's closed sets of words, read the same way everywhere.

/// A closed set of lower-case words (the config enums).
pub trait Choice: Sized + Copy + 'static {
    /// Every value, in the order the spec lists them.
    const ALL: &'static [Self];
    /// The word as written in the config.
    fn as_str(self) -> &'static str;
    /// Whether this version of ipreuse can run the value. The schema and [`super::decode()`] accept
    /// every value of [`ALL`](Choice::ALL); [`super::resolve`] refuses the others, so that nothing
    /// after it meets them.
    fn available(self) -> bool {
        true
    }
    /// The value for a word (exact, case-sensitive).
    fn from_word(word: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|c| c.as_str() == word)
    }
    /// `a, b, c`, for messages.
    fn allowed() -> String {
        Self::ALL
            .iter()
            .map(|c| c.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
    /// The available values, `a, b or c`, for messages.
    fn available_words() -> String {
        let words: Vec<&str> = Self::ALL
            .iter()
            .filter(|c| c.available())
            .map(|c| c.as_str())
            .collect();
        match words.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => words.concat(),
        }
    }
}
