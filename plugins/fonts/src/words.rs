//! Word boundaries for the scripts written without spaces between words: Thai, Lao, Khmer
//! and Myanmar (line break class SA). UAX #14 leaves them to "dictionaries or other
//! heuristics"; these are ICU4X's (`icu_segmenter`, compiled data), 1 MB of word lists that
//! the host keeps so that components do not each carry them. The layout in the SDK asks for
//! the runs of such characters only; everything else it breaks itself.

use icu_segmenter::options::LineBreakOptions;
use icu_segmenter::LineSegmenter;

/// The byte offsets of `text` where a line may break, rising from 0 to `text.len()`: ICU's
/// line segmenter with its dictionary model for Thai, Lao, Khmer and Myanmar (the smallest
/// model that knows all four: no LSTM, and not the Chinese/Japanese dictionary the word
/// segmenter would bring). Other characters break by UAX #14.
pub fn word_breaks(text: &str) -> Vec<u32> {
    LineSegmenter::new_dictionary(LineBreakOptions::default())
        .segment_str(text)
        .filter_map(|at| u32::try_from(at).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::word_breaks;

    fn words(text: &str) -> Vec<&str> {
        word_breaks(text)
            .windows(2)
            .map(|w| &text[w[0] as usize..w[1] as usize])
            .collect()
    }

    #[test]
    fn splits_thai_lao_khmer_and_myanmar_words() {
        // "Human rights" (the UDHR's title in Thai): rights / human / people.
        assert_eq!(words("สิทธิมนุษยชน"), ["สิทธิ", "มนุษย", "ชน"]);
        for text in [
            "ພາສາລາວເປັນພາສາທີ່ສວຍງາມ",
            "ភាសាខ្មែរជាភាសាផ្លូវការ",
            "မြန်မာဘာသာစကားသည်",
        ] {
            let breaks = word_breaks(text);
            assert_eq!(breaks.first(), Some(&0));
            assert_eq!(breaks.last(), Some(&(text.len() as u32)));
            assert!(breaks.len() > 3, "{text}: {:?}", words(text));
        }
        assert_eq!(word_breaks(""), [0]);
    }
}
