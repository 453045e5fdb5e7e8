//! Slugs: `"How to Train Your Dragon!"` -> `"how-to-train-your-dragon"`.

/// The longest slug, in characters; longer titles are cut at a word.
const MAX_SLUG_CHARS: usize = 120;

/// Letters and digits lower-cased, every other run of characters one `-`,
/// none at either end. Empty when the title has no letter or digit.
pub fn slugify(title: &str) -> String {
    let mut slug = String::with_capacity(title.len());
    for word in title
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if slug.chars().count() + word.chars().count() > MAX_SLUG_CHARS && !slug.is_empty() {
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.extend(
            word.chars()
                .flat_map(char::to_lowercase)
                .take(MAX_SLUG_CHARS),
        );
    }
    slug
}

#[cfg(test)]
mod tests {
    use super::slugify;

    #[test]
    fn words_are_joined_by_dashes() {
        assert_eq!(
            slugify("How to Train Your Dragon!"),
            "how-to-train-your-dragon"
        );
        assert_eq!(slugify("  --a  b-- "), "a-b");
        assert_eq!(slugify("Ünïcode Straße"), "ünïcode-straße");
        assert_eq!(slugify("'; DROP TABLE articles; --"), "drop-table-articles");
        assert_eq!(slugify("!!!"), "");
    }

    #[test]
    fn long_titles_are_cut_at_a_word() {
        let title = "word ".repeat(100);
        let slug = slugify(&title);
        assert!(slug.chars().count() <= 120);
        assert!(slug.ends_with("word"));
    }
}
