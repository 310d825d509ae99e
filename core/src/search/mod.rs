//! PLACEHOLDER until the BM25 index lands from branch `search`: same API, substring scoring.
#![allow(missing_docs)]

use crate::census::Census;
use crate::definition::ToolDefinition;

#[derive(Clone, Debug)]
pub struct SearchIndex {
    docs: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct SearchHit {
    pub index: usize,
    pub score: f64,
}

impl SearchIndex {
    pub fn build<'a>(docs: impl IntoIterator<Item = (&'a str, &'a str, &'a str)>) -> SearchIndex {
        SearchIndex {
            docs: docs
                .into_iter()
                .map(|(n, f, d)| format!("{n} {f} {d}").to_lowercase())
                .collect(),
        }
    }
    pub fn of_census(census: &Census, definitions: &[ToolDefinition]) -> SearchIndex {
        SearchIndex::build(
            census
                .tools()
                .iter()
                .zip(definitions)
                .map(|(t, d)| (t.name(), t.form(), d.description.as_str())),
        )
    }
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Vec<SearchHit> {
        let words: Vec<String> = search_terms(query);
        let mut hits: Vec<SearchHit> = self
            .docs
            .iter()
            .enumerate()
            .filter(|(i, _)| keep(*i))
            .map(|(index, d)| SearchHit {
                index,
                score: words.iter().filter(|w| d.contains(w.as_str())).count() as f64,
            })
            .filter(|h| h.score > 0.0)
            .collect();
        hits.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
        hits.truncate(limit);
        hits
    }
    pub fn search_offered(&self, census: &Census, query: &str, limit: usize) -> Vec<SearchHit> {
        self.search(query, limit, |i| census.tools()[i].is_offered())
    }
    pub fn len(&self) -> usize {
        self.docs.len()
    }
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }
}

pub fn search_terms(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}
