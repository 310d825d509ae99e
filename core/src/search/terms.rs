//! The words of a tool name, a description or a query, and the light stemmer both sides share.
//!
//! Policy: documents and queries go through the same two functions ([`search_terms`], then
//! [`index_term`]), so a word matches itself whatever its casing, separator or inflection. Never
//! panics: any `&str` is split by `char`, never by byte offset.

/// The words of a name or text: split on `/ . _ -`, whitespace and punctuation, and at camelCase
/// and letter/digit boundaries (`getHTTPResponse` -> get, http, response), lowercased.
///
/// Anything that is not a letter or digit (Unicode's definition) separates words; an upper-case
/// run followed by a lower-case letter ends one letter early, so an acronym and the word after it
/// come apart.
///
/// ```
/// use toolwire_core::search_terms;
/// assert_eq!(search_terms("getHTTPResponse"), ["get", "http", "response"]);
/// assert_eq!(search_terms("mcp/notion/API-get-user"), ["mcp", "notion", "api", "get", "user"]);
/// assert_eq!(search_terms("read_file.v2 (base64)"), ["read", "file", "v", "2", "base", "64"]);
/// assert!(search_terms(" -- !! ").is_empty());
/// ```
pub fn search_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    let mut word = String::new();
    let mut previous: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut word, &mut terms);
            previous = None;
            continue;
        }
        if let Some(p) = previous {
            let next = chars.peek().copied();
            if starts_new_word(p, c, next) {
                flush(&mut word, &mut terms);
            }
        }
        word.extend(c.to_lowercase());
        previous = Some(c);
    }
    flush(&mut word, &mut terms);
    terms
}

/// Whether `c` (after `previous`, before `next`) begins a new word inside a run of letters and
/// digits: lower to upper (`getFile`), the last capital of an acronym before a lower-case letter
/// (`HTTPResponse`), and a letter/digit change (`v2`, `base64`).
fn starts_new_word(previous: char, c: char, next: Option<char>) -> bool {
    let lower_to_upper = previous.is_lowercase() && c.is_uppercase();
    let acronym_end =
        previous.is_uppercase() && c.is_uppercase() && next.is_some_and(char::is_lowercase);
    let digit_change = previous.is_numeric() != c.is_numeric();
    lower_to_upper || acronym_end || digit_change
}

fn flush(word: &mut String, terms: &mut Vec<String>) {
    if !word.is_empty() {
        terms.push(std::mem::take(word));
    }
}

/// English words too common to tell tools apart; a query written as a sentence ("what time is
/// it in Tokyo") keeps only the words that carry meaning. Sorted, for a binary search.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "for", "from",
    "had", "has", "have", "having", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my",
    "of", "on", "one", "or", "our", "should", "so", "some", "such", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "those", "to", "too", "up", "us", "very",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "will", "with", "would",
    "you", "your",
];

/// The indexed form of one word from [`search_terms`]: `None` for a stop word, otherwise the word
/// lightly stemmed ([`stem`]).
pub(super) fn index_term(word: &str) -> Option<String> {
    if STOP_WORDS.binary_search(&word).is_ok() {
        return None;
    }
    Some(stem(word))
}

/// A light English stemmer for ASCII words: plural `-s`/`-es`/`-ies`, `-ing`, `-ed`/`-ied`, a
/// doubled final consonant left by those (`running` -> `run`), then a final silent `e`, so that
/// `file`/`files`, `create`/`created`/`creating` and `directory`/`directories` meet. Words of
/// three letters or fewer, and anything not ASCII, are kept as they are.
pub(super) fn stem(word: &str) -> String {
    if word.len() <= 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_owned();
    }
    let mut w = word.to_owned();
    // Plurals.
    if w.ends_with("sses") {
        w.truncate(w.len() - 2);
    } else if w.ends_with("ies") && w.len() > 4 {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") && !w.ends_with("is") {
        w.pop();
    }
    // Verb endings, only where a stem with a vowel is left (`thing`, `string`, `need` stay).
    if w.ends_with("ied") && w.len() > 4 {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if let Some(base) = w.strip_suffix("ing").or_else(|| strip_ed(&w)) {
        if base.len() >= 3 && base.bytes().any(is_vowel) {
            w.truncate(base.len());
            undouble(&mut w);
        }
    }
    // A final silent `e` (`create`/`creat`, `file`/`fil`), after the endings above.
    if w.len() > 3 && w.ends_with('e') && !w.ends_with("ee") {
        w.pop();
    }
    w
}

/// `w` without a final `-ed` that is not `-eed` (`speed`, `need`).
fn strip_ed(w: &str) -> Option<&str> {
    w.strip_suffix("ed").filter(|base| !base.ends_with('e'))
}

/// `stopp` -> `stop`, `runn` -> `run`; `ll`, `ss` and `zz` stay (`fill`, `pass`, `buzz`).
fn undouble(w: &mut String) {
    let bytes = w.as_bytes();
    if let [.., a, b] = bytes {
        if a == b && !is_vowel(*a) && !matches!(a, b'l' | b's' | b'z') {
            w.pop();
        }
    }
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u' | b'y')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_separators_and_case() {
        assert_eq!(
            search_terms("mcp/filesystem/read_text_file"),
            ["mcp", "filesystem", "read", "text", "file"]
        );
        assert_eq!(search_terms("search.web"), ["search", "web"]);
        assert_eq!(search_terms("getHTTPResponse"), ["get", "http", "response"]);
        assert_eq!(search_terms("XMLHttpRequest"), ["xml", "http", "request"]);
        assert_eq!(search_terms("HTTP"), ["http"]);
        assert_eq!(search_terms("sequentialthinking"), ["sequentialthinking"]);
        assert_eq!(search_terms("utf8Decode"), ["utf", "8", "decode"]);
        assert_eq!(
            search_terms("Read a file, as text."),
            ["read", "a", "file", "as", "text"]
        );
    }

    #[test]
    fn unicode_and_empty_input_never_panic() {
        assert!(search_terms("").is_empty());
        assert!(search_terms("/._-!?").is_empty());
        assert_eq!(search_terms("Ünïcode_ФАЙЛ"), ["ünïcode", "файл"]);
        assert_eq!(search_terms("天気/予報"), ["天気", "予報"]);
        // A character whose lowercase is longer than itself.
        assert_eq!(search_terms("İstanbul"), ["i\u{307}stanbul"]);
        assert_eq!(search_terms("emoji🙂tool"), ["emoji", "tool"]);
    }

    #[test]
    fn stemming_meets_inflections() {
        for (a, b) in [
            ("file", "files"),
            ("create", "created"),
            ("create", "creating"),
            ("directory", "directories"),
            ("match", "matches"),
            ("cache", "caches"),
            ("run", "running"),
            ("stop", "stopped"),
            ("modify", "modified"),
            ("process", "processes"),
            ("timezone", "timezones"),
            ("list", "listing"),
        ] {
            assert_eq!(stem(a), stem(b), "{a} / {b}");
        }
        for kept in [
            "thing",
            "string",
            "need",
            "speed",
            "status",
            "analysis",
            "a",
            "ünïcodes",
        ] {
            assert_eq!(stem(kept), kept);
        }
    }

    #[test]
    fn stop_words_are_sorted_and_dropped() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(index_term("the"), None);
        assert_eq!(index_term("files").as_deref(), Some("fil"));
    }
}
