//! The tools report of a gateway: the runtime's, with each tool's served name and what the
//! gateway itself leaves out (its name budget, a name or a schema an API refuses).

use crate::mcp::serve::ToolServer;
use crate::runtime::report::{clashes_of, ReportStatus, ToolsReport};
use crate::wire::WhyLeftOut;

impl ToolServer {
    /// The tools report ([`ToolRuntime::report`](crate::ToolRuntime::report)) as this server
    /// serves it: each served tool's name under the budget ([`ToolReport::served`]), and each
    /// tool the runtime offers but this server does not (a name cut by the budget into
    /// another's, a name or schema a client or API refuses) left out with why, and each
    /// provider's restarts as this server counts them (used, and left under
    /// [`ServeOptions::restarts`](crate::mcp::serve::ServeOptions::restarts)). What a
    /// gateway's `/tools` and `/tools.json` show.
    ///
    /// [`ToolReport::served`]: crate::runtime::report::ToolReport::served
    ///
    /// ```
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// use std::sync::Arc;
    /// use serde_json::json;
    /// use toolwire_core::mcp::serve::{ServeOptions, ToolServer};
    /// use toolwire_core::{census::NameBudget, provider::provider_fn, runtime::report::ReportStatus};
    /// use toolwire_core::{ToolDefinition, ToolRuntime};
    /// let files = provider_fn("files", vec![
    ///     ToolDefinition::new("mcp/files/read_file", "Reads.", json!({})),
    ///     ToolDefinition::new("mcp/files/read_dir", "Lists.", json!({})),
    /// ], |_, args| async move { Ok(args) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(files)).await.unwrap().check().unwrap();
    /// let server = ToolServer::new(runtime, ServeOptions::default().budget(NameBudget::new(12).unwrap()));
    /// let report = server.report();
    /// // Both cut to `mcp_files_re`: neither can be told apart, so neither is served.
    /// assert_eq!(report.tools[0].status, ReportStatus::LeftOut);
    /// assert_eq!(report.tools[0].reason_key, Some("budget_clash"));
    /// assert_eq!(report.tools[0].clashes_with, ["mcp/files/read_dir"]);
    /// assert_eq!(server.runtime().report().tools[0].status, ReportStatus::Offered);
    /// assert_eq!((report.providers[0].restarts, report.providers[0].restarts_left), (0, Some(3)));
    /// # });
    /// ```
    pub fn report(&self) -> ToolsReport {
        let request = self.runtime().request();
        let view = self.view(&request);
        let mut report = self.runtime().report();
        // The restarts this server made and may still make, from the counter that decides
        // them: the runtime counts every reload, this server bounds its own restarts.
        for provider in &mut report.providers {
            let used = self.restarts_used(&provider.name);
            provider.restarts = used;
            provider.restarts_left = Some(self.options().restarts.saturating_sub(used));
        }
        for tool in &mut report.tools {
            if tool.status != ReportStatus::Offered {
                continue;
            }
            tool.served = view.served_name(&tool.name).map(str::to_owned);
            if tool.served.is_some() {
                continue;
            }
            if let Some(left) = view.left_out.iter().find(|l| l.name == tool.name) {
                tool.status = ReportStatus::LeftOut;
                tool.reason = Some(left.reason.to_string());
                tool.reason_key = Some(left.reason.key());
                if let WhyLeftOut::Census(reason) = &left.reason {
                    tool.clashes_with = clashes_of(reason);
                }
            }
        }
        report
    }
}
