//! Suggestions for a name no tool answers to: the offered forms closest to it, so the model
//! can retry with a name that works.

use super::Census;

impl Census {
    /// The offered forms closest to `called` (by edit distance over characters), at most
    /// `limit`, closest first: for an unknown-tool error that helps the model retry.
    ///
    /// ```
    /// let census = toolwire_core::Census::build(["search_web", "read_file", "write_file"], &[]);
    /// assert_eq!(census.closest_offered("serch_web", 1), ["search_web"]);
    /// ```
    pub fn closest_offered(&self, called: &str, limit: usize) -> Vec<&str> {
        let called: Vec<char> = called.chars().take(256).collect();
        let mut scored: Vec<(usize, &str)> = self
            .offered()
            .map(|t| (edit_distance(&called, t.form()), t.form()))
            .collect();
        scored.sort();
        scored.into_iter().take(limit).map(|(_, f)| f).collect()
    }
}

fn edit_distance(a: &[char], b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}
