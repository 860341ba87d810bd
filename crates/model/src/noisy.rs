//! When the repetitions of a figure disagree too much for their mean to be read alone: one rule
//! for the terminal, the preset summaries, the reports and the exports.

/// A coefficient of variation (standard deviation over mean) of the repetitions above this
/// marks a figure as noisy.
pub const NOISY_CV: f64 = 0.10;

/// Repetitions with mean `mean` and standard deviation `sd` are noisy.
pub fn is_noisy(mean: f64, sd: f64) -> bool {
    mean != 0.0 && sd / mean.abs() > NOISY_CV
}

/// The rule in words, for the note beside a table that marks figures noisy: "the runs
/// varied by more than 10 % of their mean".
pub fn rule() -> String {
    format!(
        "the runs varied by more than {} % of their mean",
        NOISY_CV * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rule_sits_at_ten_percent_and_says_so() {
        assert!(!is_noisy(100.0, 10.0));
        assert!(is_noisy(100.0, 10.01));
        assert!(!is_noisy(0.0, 5.0));
        assert_eq!(rule(), "the runs varied by more than 10 % of their mean");
    }
}
