//! The words of a tool name, a description or a query, and the light stemmer both sides share.
//!
//! Policy: documents and queries go through the same function (`each_index_term`: the words of
//! [`search_terms`], stop words dropped, stemmed), so a word matches itself whatever its casing,
//! separator or inflection. Never panics: any `&str` is split by `char`, never by byte offset.

/// The words of a name or text: split on `/ . _ -`, whitespace and punctuation, and at camelCase
/// and letter/digit boundaries (`getHTTPResponse` -> get, http, response), lowercased.
///
/// Anything that is not a letter or digit (Unicode's definition) separates words; an upper-case
/// run followed by a lower-case letter ends one letter early, so an acronym and the word after it
/// come apart.
///
/// ```
/// use toolwire_core::search::search_terms;
/// assert_eq!(search_terms("getHTTPResponse"), ["get", "http", "response"]);
/// assert_eq!(search_terms("mcp/notion/API-get-user"), ["mcp", "notion", "api", "get", "user"]);
/// assert_eq!(search_terms("read_file.v2 (base64)"), ["read", "file", "v", "2", "base", "64"]);
/// assert!(search_terms(" -- !! ").is_empty());
/// ```
pub fn search_terms(text: &str) -> Vec<String> {
    let mut terms = Vec::new();
    each_word(text, |word| terms.push(word.to_owned()));
    terms
}

/// Calls `f` with each word of `text`, as [`search_terms`] splits it, from one reused buffer:
/// the index is built from this without a `String` per word.
pub(super) fn each_word(text: &str, mut f: impl FnMut(&str)) {
    let mut word = String::new();
    let mut previous: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            flush(&mut word, &mut f);
            previous = None;
            continue;
        }
        if let Some(p) = previous {
            let next = chars.peek().copied();
            if starts_new_word(p, c, next) {
                flush(&mut word, &mut f);
            }
        }
        if c.is_ascii() {
            word.push(c.to_ascii_lowercase());
        } else {
            word.extend(c.to_lowercase());
        }
        previous = Some(c);
    }
    flush(&mut word, &mut f);
}

/// Calls `f` with each indexed term of `text`: its words, stop words dropped, stemmed.
pub(super) fn each_index_term(text: &str, mut f: impl FnMut(&str)) {
    let mut term = String::new();
    each_word(text, |word| {
        if is_stop_word(word) {
            return;
        }
        term.clear();
        term.push_str(word);
        stem_in_place(&mut term);
        f(&term);
    });
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

fn flush(word: &mut String, f: &mut impl FnMut(&str)) {
    if !word.is_empty() {
        f(word);
        word.clear();
    }
}

/// English words too common to tell tools apart; a query written as a sentence ("what time is
/// it in Tokyo") keeps only the words that carry meaning. Sorted, each at most 8 bytes.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
    "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "for", "from",
    "had", "has", "have", "having", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my",
    "of", "on", "one", "or", "our", "should", "so", "some", "such", "than", "that", "the", "their",
    "them", "then", "there", "these", "they", "this", "those", "to", "too", "up", "us", "very",
    "was", "we", "were", "what", "when", "where", "which", "while", "who", "will", "with", "would",
    "you", "your",
];

/// The stop words, each packed into a `u64` ([`pack`]) and sorted at compile time: a word is
/// checked with one binary search over integers (the build spent a third of its time comparing
/// strings when this was a search over `&str`).
const STOP_KEYS: [u64; STOP_WORDS.len()] = {
    let mut keys = [0; STOP_WORDS.len()];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = pack(STOP_WORDS[i]);
        // Insertion sort: `const` has no `sort`.
        let mut j = i;
        while j > 0 && keys[j - 1] > keys[j] {
            let swap = keys[j - 1];
            keys[j - 1] = keys[j];
            keys[j] = swap;
            j -= 1;
        }
        i += 1;
    }
    keys
};

/// The bytes of a word of at most 8 bytes as one integer; one-to-one for words without a NUL.
const fn pack(word: &str) -> u64 {
    let bytes = word.as_bytes();
    let mut key = 0u64;
    let mut i = 0;
    while i < bytes.len() && i < 8 {
        key = (key << 8) | bytes[i] as u64;
        i += 1;
    }
    key
}

/// Whether `word` (lower case) is a stop word.
fn is_stop_word(word: &str) -> bool {
    // Every stop word is at most 8 bytes and without a NUL, so packing cannot confuse two.
    word.len() <= 8 && !word.contains('\0') && STOP_KEYS.binary_search(&pack(word)).is_ok()
}

/// A light English stemmer for ASCII words: plural `-s`/`-es`/`-ies`, `-ing`, `-ed`/`-ied`, a
/// doubled final consonant left by those (`running` -> `run`), then a final silent `e`, so that
/// `file`/`files`, `create`/`created`/`creating` and `directory`/`directories` meet. Words of
/// three letters or fewer, and anything not ASCII, are kept as they are.
fn stem_in_place(w: &mut String) {
    if w.len() <= 3 || !w.bytes().all(|b| b.is_ascii_lowercase()) {
        return;
    }
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
    } else if let Some(base) = w.strip_suffix("ing").or_else(|| strip_ed(w)) {
        if base.len() >= 3 && base.bytes().any(is_vowel) {
            w.truncate(base.len());
            undouble(w);
        }
    }
    // A final silent `e` (`create`/`creat`, `file`/`fil`), after the endings above.
    if w.len() > 3 && w.ends_with('e') && !w.ends_with("ee") {
        w.pop();
    }
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

    fn stem(word: &str) -> String {
        let mut w = word.to_owned();
        stem_in_place(&mut w);
        w
    }

    fn index_terms(text: &str) -> Vec<String> {
        let mut terms = Vec::new();
        each_index_term(text, |t| terms.push(t.to_owned()));
        terms
    }

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
        assert!(STOP_WORDS.iter().all(|w| w.len() <= 8 && is_stop_word(w)));
        for kept in ["", "file", "thee", "abouts", "\0a", "a\0", "about\0\0\0x"] {
            assert!(!is_stop_word(kept), "{kept:?}");
        }
        assert_eq!(
            index_terms("The files of THE directories"),
            ["fil", "directory"]
        );
    }
}
