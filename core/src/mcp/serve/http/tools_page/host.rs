//! The `Host` and `Origin` rules of the Tools page: the MCP endpoint's own (loopback unless
//! `--allowed-host`), which rmcp checks for MCP requests but keeps private. These mirror rmcp
//! 3.11's `transport/streamable_http_server/tower.rs` (`host_is_allowed`,
//! `parse_allowed_origin`, `origin_is_allowed`): a host entry without a port matches any
//! port; an origin entry `scheme://host:*` matches any port, one with a port only that port
//! (the scheme's default when the origin names none, RFC 6454 §6.2).

/// A host (lowercase, without brackets) and its port, if given.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Authority {
    pub(super) host: String,
    pub(super) port: Option<u16>,
}

pub(super) fn authority(text: &str) -> Option<Authority> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    let normal = |host: &str| host.trim_matches(['[', ']']).to_ascii_lowercase();
    match http::uri::Authority::try_from(text) {
        Ok(a) => Some(Authority {
            host: normal(a.host()),
            port: a.port_u16(),
        }),
        Err(_) => Some(Authority {
            host: normal(text),
            port: None,
        }),
    }
}

/// A request's `Host` header read strictly (RFC 9110 §7.2: `uri-host [ ":" port ]`, no user
/// information): `None` when it does not parse, which the page answers with 400. The allowed
/// lists are read leniently ([`authority`]: `::1` without brackets is an entry), a request's
/// header is not.
pub(super) fn request_host(text: &str) -> Option<Authority> {
    let parsed = http::uri::Authority::try_from(text.trim()).ok()?;
    if parsed.as_str().contains('@') || parsed.host().is_empty() {
        return None;
    }
    // `http` keeps a port it cannot read (`gw.example:port`) as no port: that is no Host.
    let port = &parsed.as_str()[parsed.host().len()..];
    if let Some(digits) = port.strip_prefix(':') {
        if !digits.is_empty() && digits.parse::<u16>().is_err() {
            return None;
        }
    } else if !port.is_empty() {
        return None;
    }
    authority(parsed.as_str())
}

/// Whether the `Host` `host` is one of `allowed` (an empty list allows every host, as
/// rmcp's does: `HttpOptions::allowed_hosts` emptied is the caller's choice to check none).
pub(super) fn host_allowed(host: &Authority, allowed: &[String]) -> bool {
    if allowed.is_empty() {
        return true;
    }
    allowed
        .iter()
        .filter_map(|a| authority(a))
        .any(|a| a.host == host.host && a.port.is_none_or(|port| host.port == Some(port)))
}

/// An origin's scheme and authority.
pub(super) fn origin(text: &str) -> Option<(String, Authority)> {
    let uri = http::Uri::try_from(text.trim()).ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let authority = authority(uri.authority()?.as_str())?;
    Some((scheme, authority))
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

/// Whether the `Origin` header `given` is one of `allowed`.
pub(super) fn origin_allowed(given: &str, allowed: &[String]) -> bool {
    let Some((scheme, given)) = origin(given) else {
        return false;
    };
    allowed.iter().any(|entry| {
        let (base, any_port) = match entry.trim().strip_suffix(":*") {
            Some(base) => (base, true),
            None => (entry.as_str(), false),
        };
        let Some((a_scheme, a)) = origin(base) else {
            return false;
        };
        a_scheme == scheme
            && a.host == given.host
            && (any_port
                || a.port.is_none()
                || given.port.or_else(|| default_port(&scheme)) == a.port)
    })
}

/// Whether `given` (an `Origin`) is the origin the request was sent to (`host`, its `Host`):
/// a page of another origin, even another loopback port, is another site's. The scheme is the
/// `Origin`'s own: behind a TLS-terminating proxy the page is `https://gw.example` while the
/// gateway hears plain HTTP with `Host: gw.example`, and the two are one origin. Only `http`
/// and `https` pages are pages of the gateway; `tls` (the request came over TLS, or a proxy
/// says it did) asks for `https`: a plain-HTTP page of the same name is another origin. A
/// forged proxy header can only refuse more, never let more in.
pub(super) fn same_origin(given: &str, host: &Authority, tls: bool) -> bool {
    let Some((scheme, given)) = origin(given) else {
        return false;
    };
    let scheme_fits = match scheme.as_str() {
        "https" => true,
        "http" => !tls,
        _ => false,
    };
    scheme_fits
        && given.host == host.host
        && given.port.or_else(|| default_port(&scheme))
            == host.port.or_else(|| default_port(&scheme))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> (Vec<String>, Vec<String>) {
        let options = crate::mcp::serve::HttpOptions::default();
        (options.allowed_hosts, options.allowed_origins)
    }

    fn host(text: &str) -> Authority {
        request_host(text).unwrap_or_else(|| panic!("{text} parses"))
    }

    #[test]
    fn loopback_hosts_and_origins_pass_and_foreign_ones_do_not() {
        let (hosts, origins) = loopback();
        assert!(host_allowed(&host("127.0.0.1:8080"), &hosts));
        assert!(host_allowed(&host("localhost"), &hosts));
        assert!(host_allowed(&host("[::1]:9"), &hosts));
        assert!(!host_allowed(&host("evil.example:8080"), &hosts));
        assert!(
            host_allowed(&host("evil.example"), &[]),
            "an empty list checks none, as rmcp's"
        );
        assert!(origin_allowed("http://127.0.0.1:5555", &origins));
        assert!(!origin_allowed("http://evil.example", &origins));
        assert!(!origin_allowed("https://127.0.0.1:5555", &origins));
        assert!(!origin_allowed("null", &origins));
        assert!(
            !origin_allowed("http://127.0.0.1:5555", &[]),
            "an empty list allows none"
        );
    }

    #[test]
    fn same_origin_is_the_host_and_port_the_request_was_sent_to() {
        let same = |origin: &str, to: &str| same_origin(origin, &host(to), false);
        assert!(same("http://127.0.0.1:8080", "127.0.0.1:8080"));
        assert!(same("http://gw.example", "gw.example:80"));
        assert!(same("https://gw.example", "gw.example"));
        assert!(!same("https://gw.example", "gw.example:80"));
        assert!(!same("http://127.0.0.1:9999", "127.0.0.1:8080"));
        assert!(!same("null", "127.0.0.1:8080"));
        // Only a web page's scheme; over TLS, only an https page.
        assert!(!same("foo://gw.example", "gw.example"));
        assert!(same_origin("https://gw.example", &host("gw.example"), true));
        assert!(!same_origin("http://gw.example", &host("gw.example"), true));
    }

    #[test]
    fn a_host_that_does_not_parse_is_none_and_a_malformed_entry_matches_nothing() {
        for bad in [
            "",
            "a b",
            "user@gw.example",
            "gw.example:port",
            "[::1",
            "gw/x",
        ] {
            assert!(request_host(bad).is_none(), "{bad:?}");
        }
        let entries = [
            "http://[".to_owned(),
            "::*".to_owned(),
            "%%%".to_owned(),
            "http://127.0.0.1:*".to_owned(),
        ];
        assert!(origin_allowed("http://127.0.0.1:5555", &entries));
        assert!(!origin_allowed("http://evil.example", &entries));
        assert!(!host_allowed(
            &host("evil.example"),
            &["[".to_owned(), ":".to_owned()]
        ));
    }
}
