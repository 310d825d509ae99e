//! The BM25F index: one document per census position, two fields (the name's words, the
//! description's words), every score part computed once at build time.
//!
//! Policy: a query does no work that depends only on the tools. Each posting already holds its
//! term's whole contribution to its document's score (IDF times the saturated, length-normalised,
//! field-weighted term frequency), so a query is a dictionary lookup per word and a sum per
//! posting, then a sort of the documents it touched.

use std::collections::HashMap;
use std::fmt;

use super::terms::each_index_term;
use crate::census::Census;
use crate::tools::ToolDefinition;

/// BM25's term-frequency saturation.
const K1: f64 = 1.2;
/// How much a field's length (against the average) discounts its term frequency.
const B_NAME: f64 = 0.5;
const B_DESCRIPTION: f64 = 0.75;
/// A word of the name (or form) counts this many description words: a name says what the tool
/// is, a description also says what it is not, how, and with which errors.
const W_NAME: f64 = 2.5;
const W_DESCRIPTION: f64 = 1.0;

/// A search index over a tool set, built once per tool set: BM25F over each tool's real name and
/// form (split into words by [`search_terms`](crate::search::search_terms)) and its description, with
/// English stop words dropped and a light stemmer (`files` meets `file`, `created` meets
/// `create`) applied to documents and queries alike.
///
/// Positions are the order the documents were given in: for [`SearchIndex::of_census`], census
/// positions.
///
/// ```
/// use toolwire_core::search::SearchIndex;
/// let index = SearchIndex::build([
///     ("mcp/fs/read_file", "mcp_fs_read_file", "Read the contents of a file."),
///     ("mcp/time/get_current_time", "mcp_time_get_current_time", "Current time in a timezone."),
/// ]);
/// let hits = index.search("what time is it in Tokyo", 5, |_| true);
/// assert_eq!(hits[0].index, 1);
/// assert_eq!(hits.len(), 1);
/// ```
#[derive(Clone)]
pub struct SearchIndex {
    /// Term -> its id, the position of its postings.
    terms: HashMap<Box<str>, u32, foldhash::fast::RandomState>,
    /// Per term id, the documents it occurs in.
    postings: Vec<Box<[Posting]>>,
    /// How many documents were indexed.
    len: usize,
}

/// One document a term occurs in, with the term's whole score in that document.
#[derive(Clone, Copy, Debug)]
struct Posting {
    doc: u32,
    score: f64,
}

/// One tool a search found: its position (in the census, for [`SearchIndex::of_census`]) and
/// its score (higher is better; only the order means anything).
///
/// ```
/// use toolwire_core::search::{SearchHit, SearchIndex};
/// let index = SearchIndex::build([("echo", "echo", "Echoes back the input")]);
/// let hits: Vec<SearchHit> = index.search("echo", 5, |_| true);
/// assert_eq!(hits[0].index, 0);
/// assert!(hits[0].score > 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SearchHit {
    /// The document's position: the census position, for [`SearchIndex::of_census`].
    pub index: usize,
    /// The BM25F score; always above zero.
    pub score: f64,
}

/// The vocabulary: term -> id, in order of first occurrence.
type Vocabulary = HashMap<Box<str>, u32, foldhash::fast::RandomState>;

/// The terms of every document in one flat list, as the build's first pass leaves them.
#[derive(Default)]
struct Occurrences {
    vocabulary: Vocabulary,
    /// (term id, whether it is a name word), document after document.
    terms: Vec<(u32, bool)>,
    /// Per document: where its terms end in `terms`, its name's and its description's lengths.
    docs: Vec<(usize, u32, u32)>,
}

/// The id of `term`, entered on first sight: only a new term allocates.
fn term_id(vocabulary: &mut Vocabulary, term: &str) -> u32 {
    if let Some(&id) = vocabulary.get(term) {
        return id;
    }
    // More distinct terms than u32::MAX do not fit in memory anyway; saturate, never panic.
    let id = u32::try_from(vocabulary.len()).unwrap_or(u32::MAX);
    vocabulary.insert(term.into(), id);
    id
}

impl Occurrences {
    fn add(&mut self, name: &str, form: &str, description: &str) {
        let vocabulary = &mut self.vocabulary;
        let terms = &mut self.terms;
        let start = terms.len();
        each_index_term(name, |t| terms.push((term_id(vocabulary, t), true)));
        let name_end = terms.len();
        // The form's words are most often the name's own (`mcp_fs_read_file`); only those the
        // name lacks (a cut, or a different split) add to the name field, so a word does not
        // count twice for travelling under a form.
        each_index_term(form, |t| {
            let id = term_id(vocabulary, t);
            if !terms[start..name_end].iter().any(|&(other, _)| other == id) {
                terms.push((id, true));
            }
        });
        let name_len = terms.len() - start;
        each_index_term(description, |t| terms.push((term_id(vocabulary, t), false)));
        let description_len = terms.len() - start - name_len;
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        self.docs
            .push((terms.len(), count(name_len), count(description_len)));
    }
}

impl SearchIndex {
    /// One document per census position: (real name, form, description).
    ///
    /// ```
    /// use toolwire_core::search::SearchIndex;
    /// let index = SearchIndex::build([
    ///     ("mcp/memory/delete_entities", "mcp_memory_delete_entities", "Delete entities"),
    ///     ("mcp/memory/create_entities", "mcp_memory_create_entities", "Create entities"),
    /// ]);
    /// assert_eq!(index.len(), 2);
    /// assert_eq!(index.search("delete an entity", 5, |_| true)[0].index, 0);
    /// ```
    pub fn build<'a>(docs: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> SearchIndex {
        // First pass: every document's terms, each term entered once in the vocabulary.
        let mut occurrences = Occurrences::default();
        for (name, form, description) in docs {
            occurrences.add(name, form, description);
        }
        let Occurrences {
            vocabulary,
            mut terms,
            docs,
        } = occurrences;
        let len = docs.len();
        let average = |field_len: fn(&(usize, u32, u32)) -> u32| {
            let total: f64 = docs.iter().map(|d| f64::from(field_len(d))).sum();
            if len == 0 {
                1.0
            } else {
                (total / len as f64).max(1.0)
            }
        };
        let average_name = average(|d| d.1);
        let average_description = average(|d| d.2);

        // Second pass: per document, each term's field-weighted, length-normalised frequency.
        let mut weighted: Vec<Vec<(u32, f64)>> = vec![Vec::new(); vocabulary.len()];
        let mut start = 0;
        for (doc_id, &(end, name_len, description_len)) in docs.iter().enumerate() {
            // Past u32::MAX documents the rest are not indexed rather than misnumbered.
            let Ok(doc_id) = u32::try_from(doc_id) else {
                break;
            };
            let name_weight = W_NAME / norm(name_len, average_name, B_NAME);
            let description_weight =
                W_DESCRIPTION / norm(description_len, average_description, B_DESCRIPTION);
            let doc_terms = &mut terms[start..end];
            start = end;
            doc_terms.sort_unstable_by_key(|&(id, _)| id);
            for run in doc_terms.chunk_by(|a, b| a.0 == b.0) {
                let tf: f64 = run
                    .iter()
                    .map(|&(_, in_name)| {
                        if in_name {
                            name_weight
                        } else {
                            description_weight
                        }
                    })
                    .sum();
                if let Some(postings) = weighted.get_mut(run[0].0 as usize) {
                    postings.push((doc_id, tf));
                }
            }
        }

        // Last: each posting's whole score, IDF included, so a query only adds.
        let n = len as f64;
        let postings = weighted
            .into_iter()
            .map(|postings| {
                let df = postings.len() as f64;
                // BM25's IDF, in the form that never goes negative.
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                postings
                    .into_iter()
                    .map(|(doc, tf)| Posting {
                        doc,
                        score: idf * tf * (K1 + 1.0) / (tf + K1),
                    })
                    .collect()
            })
            .collect();
        SearchIndex {
            terms: vocabulary,
            postings,
            len,
        }
    }

    /// Every tool of a census (position for position with `definitions`), offered or not.
    ///
    /// A tool's description is its definition's title (when it has one) and description; a
    /// census position with no definition (a shorter slice) is indexed by its name and form
    /// alone.
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{Census, ToolDefinition, names::DEFAULT_META_TOOLS, search::SearchIndex};
    /// let definitions = vec![
    ///     ToolDefinition::new("mcp/time/convert_time", "Convert time between zones", json!({})),
    ///     ToolDefinition::new("mcp/fetch/fetch", "Fetches a URL from the internet", json!({})),
    /// ];
    /// let census = Census::build(definitions.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    /// let index = SearchIndex::of_census(&census, &definitions);
    /// assert_eq!(index.len(), 2);
    /// assert_eq!(index.search("fetch a URL", 5, |_| true)[0].index, 1);
    /// ```
    pub fn of_census(census: &Census, definitions: &[ToolDefinition]) -> SearchIndex {
        let described: Vec<String> = census
            .tools()
            .iter()
            .enumerate()
            .map(|(i, _)| match definitions.get(i) {
                Some(d) => match &d.title {
                    Some(title) => format!("{title}\n{}", d.description),
                    None => d.description.clone(),
                },
                None => String::new(),
            })
            .collect();
        SearchIndex::build(
            census
                .tools()
                .iter()
                .zip(&described)
                .map(|(tool, description)| (tool.name(), tool.form(), description.as_str())),
        )
    }

    /// Best first (ties: lower index first), at most `limit`, only positions `keep` accepts,
    /// score > 0 only.
    ///
    /// The query is split and stemmed as the documents were; a word given twice counts once.
    /// A query with no indexed word (empty, punctuation, stop words only) finds nothing.
    ///
    /// ```
    /// use toolwire_core::search::SearchIndex;
    /// let index = SearchIndex::build([
    ///     ("mcp/fs/list_directory", "mcp_fs_list_directory", "List the files of a directory"),
    ///     ("mcp/fs/read_file", "mcp_fs_read_file", "Read the contents of a file"),
    /// ]);
    /// let hits = index.search("files", 5, |_| true);
    /// assert_eq!(hits.len(), 2);
    /// assert!(hits[0].score >= hits[1].score);
    /// assert_eq!(index.search("files", 5, |i| i != 0)[0].index, 1);
    /// assert!(index.search("?!", 5, |_| true).is_empty());
    /// ```
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<SearchHit> {
        if limit == 0 {
            return Vec::new();
        }
        let mut ids: Vec<u32> = Vec::new();
        each_index_term(query, |word| {
            if let Some(&id) = self.terms.get(word) {
                ids.push(id);
            }
        });
        ids.sort_unstable();
        ids.dedup();
        let mut scores: HashMap<u32, f64, foldhash::fast::RandomState> = HashMap::default();
        for &id in &ids {
            let Some(postings) = self.postings.get(id as usize) else {
                continue;
            };
            for posting in postings.iter() {
                *scores.entry(posting.doc).or_default() += posting.score;
            }
        }
        let mut hits: Vec<SearchHit> = scores
            .into_iter()
            .map(|(doc, score)| SearchHit {
                index: doc as usize,
                score,
            })
            .filter(|hit| hit.score > 0.0 && keep(hit.index))
            .collect();
        let order =
            |a: &SearchHit, b: &SearchHit| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index));
        if hits.len() > limit {
            hits.select_nth_unstable_by(limit - 1, order);
            hits.truncate(limit);
        }
        hits.sort_unstable_by(order);
        hits
    }

    /// [`SearchIndex::search`] over the tools `census` offers (what both the runtime's
    /// `tool_search` and the CLI run).
    ///
    /// ```
    /// use toolwire_core::{Census, ToolDefinition, names::DEFAULT_META_TOOLS, search::SearchIndex};
    /// let definitions = vec![
    ///     ToolDefinition::new("mcp/a/b", "Echo a message", serde_json::json!({})),
    ///     ToolDefinition::new("mcp/a_b", "Echo a message", serde_json::json!({})),
    ///     ToolDefinition::new("mcp/s/echo", "Echo a message", serde_json::json!({})),
    /// ];
    /// let census = Census::build(definitions.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
    /// let index = SearchIndex::of_census(&census, &definitions);
    /// // `mcp/a/b` and `mcp/a_b` share a form: both are left out, so never found.
    /// let hits = index.search_offered(&census, "echo", 5);
    /// assert_eq!(hits.iter().map(|h| h.index).collect::<Vec<_>>(), [2]);
    /// ```
    pub fn search_offered(&self, census: &Census, query: &str, limit: usize) -> Vec<SearchHit> {
        let tools = census.tools();
        self.search(query, limit, |i| {
            tools.get(i).is_some_and(|t| t.is_offered())
        })
    }

    /// How many documents (tools) the index holds.
    ///
    /// ```
    /// use toolwire_core::search::SearchIndex;
    /// assert_eq!(SearchIndex::build([("a", "a", ""), ("b", "b", "")]).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the index holds no document.
    ///
    /// ```
    /// use toolwire_core::search::SearchIndex;
    /// assert!(SearchIndex::build([]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// BM25's length normalisation of one field: `1 - b + b * len / average`.
fn norm(len: u32, average: f64, b: f64) -> f64 {
    1.0 - b + b * f64::from(len) / average
}

impl fmt::Debug for SearchIndex {
    /// The sizes only: the postings of a large tool set would drown a log line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SearchIndex")
            .field("documents", &self.len)
            .field("terms", &self.terms.len())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> SearchIndex {
        SearchIndex::build([
            (
                "mcp/fs/read_file",
                "mcp_fs_read_file",
                "Read the complete contents of a file as text.",
            ),
            (
                "mcp/fs/write_file",
                "mcp_fs_write_file",
                "Create a new file or overwrite an existing file with new content.",
            ),
            (
                "mcp/fs/list_directory",
                "mcp_fs_list_directory",
                "Get a listing of all files and directories in a path.",
            ),
            (
                "mcp/time/get_current_time",
                "mcp_time_get_current_time",
                "Get current time in a specific timezone",
            ),
            ("tool.unrelated", "tool_unrelated", ""),
        ])
    }

    fn order(hits: &[SearchHit]) -> Vec<usize> {
        hits.iter().map(|h| h.index).collect()
    }

    #[test]
    fn name_words_outrank_description_words() {
        // `file` is in every fs tool's name or description; the two named for it come first.
        let hits = index().search("write a file", 5, |_| true);
        assert_eq!(hits[0].index, 1);
        let hits = index().search("directory listing", 5, |_| true);
        assert_eq!(hits[0].index, 2);
    }

    #[test]
    fn stems_meet_and_rare_words_weigh_more() {
        let hits = index().search("timezones", 5, |_| true);
        assert_eq!(order(&hits), [3]);
        // `contents` (one tool) outweighs `file` (three tools).
        let hits = index().search("file contents", 5, |_| true);
        assert_eq!(hits[0].index, 0);
    }

    #[test]
    fn best_first_ties_by_index_limit_and_keep() {
        let twins = SearchIndex::build([
            ("x", "x", "other"),
            ("b", "b", "echo"),
            ("a", "a", "echo"),
            ("c", "c", "echo"),
        ]);
        let hits = twins.search("echo", 5, |_| true);
        assert_eq!(order(&hits), [1, 2, 3]);
        assert_eq!(hits[0].score, hits[2].score);
        assert_eq!(order(&twins.search("echo", 2, |_| true)), [1, 2]);
        assert_eq!(order(&twins.search("echo", 2, |i| i != 1)), [2, 3]);
        assert!(twins.search("echo", 0, |_| true).is_empty());
        let all = index().search("file", usize::MAX, |_| true);
        assert!(all.windows(2).all(|w| w[0].score >= w[1].score));
        assert!(all.iter().all(|h| h.score > 0.0));
    }

    #[test]
    fn queries_with_no_word_find_nothing() {
        let index = index();
        for query in ["", "   ", "?!/._-", "the of a", "unknownword", "🙂"] {
            assert!(index.search(query, 5, |_| true).is_empty(), "{query:?}");
        }
        assert!(SearchIndex::build([])
            .search("file", 5, |_| true)
            .is_empty());
    }

    #[test]
    fn unicode_documents_are_searchable() {
        let index = SearchIndex::build([("天気/予報", "___", "Ünïcode WEATHER forecast")]);
        assert_eq!(order(&index.search("予報", 5, |_| true)), [0]);
        assert_eq!(order(&index.search("ünïcode", 5, |_| true)), [0]);
        assert_eq!(order(&index.search("Weather", 5, |_| true)), [0]);
    }

    #[test]
    fn debug_shows_sizes_and_index_is_send_sync() {
        fn send_sync<T: Send + Sync + Clone>() {}
        send_sync::<SearchIndex>();
        let text = format!("{:?}", index());
        assert!(
            text.starts_with("SearchIndex { documents: 5, terms: "),
            "{text}"
        );
    }

    /// Text from a few words that meet each other (so queries hit), in any casing and
    /// separator, or anything at all.
    const WORDS: &str = "((file|Files|reading|getHTTP|time|the|ÉTÉ|🙂|\\PC{1,4})[ _/.-]?){0,6}";

    proptest::proptest! {
        /// Any documents and any query: no panic, at most `limit` hits, each kept, scored above
        /// zero, best first with ties by position.
        #[test]
        fn any_input_ranks_without_panicking(
            docs in proptest::collection::vec((WORDS, WORDS, WORDS), 0..12),
            query in proptest::prop_oneof![WORDS, "\\PC{0,30}"],
            limit in 0usize..8,
        ) {
            let index = SearchIndex::build(
                docs.iter().map(|(n, f, d)| (n.as_str(), f.as_str(), d.as_str())),
            );
            proptest::prop_assert_eq!(index.len(), docs.len());
            let hits = index.search(&query, limit, |i| i % 3 != 1);
            proptest::prop_assert!(hits.len() <= limit);
            for hit in &hits {
                proptest::prop_assert!(hit.index < docs.len() && hit.index % 3 != 1);
                proptest::prop_assert!(hit.score > 0.0 && hit.score.is_finite());
            }
            for pair in hits.windows(2) {
                let ordered = pair[0].score > pair[1].score
                    || (pair[0].score == pair[1].score && pair[0].index < pair[1].index);
                proptest::prop_assert!(ordered);
            }
        }
    }
}
