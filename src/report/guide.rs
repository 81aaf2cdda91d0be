//! The order guide of one ruleset, cut from ORDERS.md as built into pbem: what a player of that
//! game needs to write his orders, attached to his welcome mail. It is always the same text for the
//! same ruleset and pbem: the part every game shares (the file, the header, the entropy line, names,
//! errors and warnings, `pbem check`), then his ruleset's own part. Beside it goes pbem's page on his
//! ruleset (docs/rules/<id>.md: what is implemented and pbem's own readings), which the guide cites;
//! both are made to stand alone in a mail, their links to each other's attached names.

/// ORDERS.md, as this pbem was built with it.
const ORDERS_MD: &str = include_str!("../../ORDERS.md");

/// pbem's page on each ruleset (docs/rules/<id>.md), as this pbem was built with it, by ruleset id.
const RULES_PAGES: &[(&str, &str)] = &[
    ("eia", include_str!("../../docs/rules/eia.md")),
    ("pog", include_str!("../../docs/rules/pog.md")),
    ("ngg", include_str!("../../docs/rules/ngg.md")),
    ("wbts", include_str!("../../docs/rules/wbts.md")),
    ("gitm", include_str!("../../docs/rules/gitm.md")),
];

/// The heading (`## ...`) of each ruleset's part of ORDERS.md, by ruleset id. A ruleset's part runs
/// from its heading to the next ruleset's.
pub const PARTS: &[(&str, &str)] = &[
    ("eia", "The orders of Empires in Arms"),
    ("pog", "Paths of Glory"),
    ("ngg", "Napoleon's Greatest Gamble"),
    ("wbts", "War Between the States"),
    ("gitm", "Gathered In Their Masses"),
];

/// The sections of Empires in Arms' part that every ruleset's part says hold for it too ("Everything
/// above about ... errors and warnings and `pbem check` holds for it too").
const SHARED_IN_EIA: &[&str] = &["Errors and warnings", "Check before you mail"];

/// A section of ORDERS.md: its `## ` heading (empty for the text before the first) and its text,
/// heading included.
struct Section<'a> {
    heading: &'a str,
    text: &'a str,
}

/// ORDERS.md cut at each `## ` heading outside a code block (an orders example's `# comment` is not
/// a heading).
fn sections(md: &str) -> Vec<Section<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut heading = "";
    let mut fenced = false;
    let mut at = 0;
    for line in md.split_inclusive('\n') {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            if let Some(h) = line.strip_prefix("## ") {
                out.push(Section {
                    heading,
                    text: &md[start..at],
                });
                heading = h.trim();
                start = at;
            }
        }
        at += line.len();
    }
    out.push(Section {
        heading,
        text: &md[start..],
    });
    out
}

/// The guide of ruleset `id` (`eia`, `pog`, ...), or `None` for a ruleset ORDERS.md has no part for.
pub fn guide(id: &str) -> Option<String> {
    guide_from(ORDERS_MD, id).map(|g| standing_alone(&g, id))
}

/// The file name of ruleset `id`'s guide as a mail attaches it.
pub fn file_name(id: &str) -> String {
    crate::orders::guide_file(id)
}

/// pbem's page on ruleset `id` as a mail attaches it beside the guide, or `None` for a ruleset
/// without one.
pub fn rules_page(id: &str) -> Option<String> {
    let page = RULES_PAGES.iter().find(|(r, _)| *r == id)?.1;
    Some(standing_alone(page, id))
}

/// The file name of ruleset `id`'s page as a mail attaches it.
pub fn rules_file_name(id: &str) -> String {
    format!("pbem-rules-{id}.md")
}

/// `md` (the guide or the rules page of ruleset `id`) as it reads out of pbem's source, beside the
/// other in a mail: the rules page named by its attached name, a link to ORDERS.md made one to the
/// guide, and a link to any other of pbem's files (which the player has not) left as its words.
fn standing_alone(md: &str, id: &str) -> String {
    let rules = rules_file_name(id);
    let md = md.replace(&format!("docs/rules/{id}.md"), &rules);
    let mut out = String::with_capacity(md.len());
    let mut rest = md.as_str();
    // `[words](target)`, target relative: kept when it is an attached file, else the words alone.
    while let Some(open) = rest.find("](") {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        let start = rest[..open].rfind('[');
        let target = &rest[open + 2..close];
        let link = start.filter(|s| !rest[*s..close].contains('\n') && !target.contains(' '));
        let Some(start) = link else {
            out.push_str(&rest[..open + 2]);
            rest = &rest[open + 2..];
            continue;
        };
        let words = &rest[start + 1..open];
        let (file, anchor) = target.split_once('#').unwrap_or((target, ""));
        out.push_str(&rest[..start]);
        let elsewhere = target.contains(':') || target.starts_with('#');
        if elsewhere || file == rules {
            out.push_str(&rest[start..=close]);
        } else if file.ends_with("ORDERS.md") {
            let guide = file_name(id);
            let words = if words == "ORDERS.md" { &guide } else { words };
            let anchor = if anchor.is_empty() {
                String::new()
            } else {
                format!("#{anchor}")
            };
            out.push_str(&format!("[{words}]({guide}{anchor})"));
        } else {
            out.push_str(words);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

fn guide_from(md: &str, id: &str) -> Option<String> {
    let own = PARTS.iter().find(|(r, _)| *r == id)?.1;
    let starts = |h: &str| PARTS.iter().any(|(_, p)| *p == h);
    let mut part: Option<&str> = None;
    let (mut common, mut shared, mut mine) = (String::new(), String::new(), String::new());
    for s in sections(md) {
        if starts(s.heading) {
            part = Some(s.heading);
        }
        match part {
            None => common.push_str(s.text),
            Some(p) if p == own => mine.push_str(s.text),
            Some(p) if p == PARTS[0].1 && SHARED_IN_EIA.contains(&s.heading) => {
                shared.push_str(s.text)
            }
            Some(_) => {}
        }
    }
    // Empires in Arms' part holds the shared sections already, in their place.
    if own == PARTS[0].1 {
        shared.clear();
    }
    Some(format!("{common}{shared}{mine}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headings(text: &str) -> Vec<&str> {
        sections(text)
            .into_iter()
            .map(|s| s.heading)
            .filter(|h| !h.is_empty())
            .collect()
    }

    /// Every ruleset's guide starts with the part every game shares, holds its own part and the
    /// shared sections, and no other ruleset's part; every section of ORDERS.md is in some guide.
    #[test]
    fn each_ruleset_gets_the_common_part_and_its_own_only() {
        let mut seen = std::collections::BTreeSet::new();
        for (id, own) in PARTS {
            let g = guide(id).unwrap();
            assert!(g.starts_with("# Writing orders\n"), "{id}");
            let hs = headings(&g);
            for must in ["The file", "The header", "Names", own]
                .iter()
                .chain(SHARED_IN_EIA)
            {
                assert!(hs.contains(must), "{id}: no '{must}' in {hs:?}");
            }
            for (other, theirs) in PARTS {
                assert!(other == id || !hs.contains(theirs), "{id} holds {theirs}");
            }
            // Each section once.
            let unique: std::collections::BTreeSet<_> = hs.iter().collect();
            assert_eq!(unique.len(), hs.len(), "{id}: {hs:?}");
            seen.extend(hs.iter().map(|h| h.to_string()));
        }
        for h in headings(ORDERS_MD) {
            assert!(seen.contains(h), "'{h}' is in no guide");
        }
        assert_eq!(guide("chess"), None);
    }

    /// What a player gets stands alone: every link of his guide and his ruleset's page leads to
    /// the other (both attached to his welcome) or out of pbem, never to a file of pbem's source,
    /// and the guide names the page by its attached name wherever ORDERS.md names it.
    #[test]
    fn the_guide_and_the_rules_page_link_only_to_each_other() {
        for (id, _) in PARTS {
            let (guide, page) = (guide(id).unwrap(), rules_page(id).unwrap());
            let attached = [file_name(id), rules_file_name(id)];
            for (name, md) in [("guide", &guide), ("page", &page)] {
                let mut rest = md.as_str();
                while let Some(at) = rest.find("](") {
                    let target = &rest[at + 2..at + 2 + rest[at + 2..].find(')').unwrap()];
                    let file = target.split('#').next().unwrap();
                    assert!(
                        target.contains("://") || attached.iter().any(|a| a == file),
                        "{id} {name}: a link to {target}"
                    );
                    rest = &rest[at + 2..];
                }
                assert!(!md.contains("docs/rules/"), "{id} {name} names docs/rules/");
            }
        }
        assert!(guide("ngg")
            .unwrap()
            .contains("[pbem-rules-ngg.md](pbem-rules-ngg.md)"));
        assert!(rules_page("eia")
            .unwrap()
            .contains("[pbem-orders-eia.md](pbem-orders-eia.md)"));
        assert!(rules_page("eia")
            .unwrap()
            .contains("dice\nlabels: DICE.md."));
        assert_eq!(rules_page("chess"), None);
    }

    /// A `## ` line inside a code block is an example's text, not a heading.
    #[test]
    fn a_heading_inside_a_code_block_is_text() {
        let md = "# T\n\n## A\n\n```text\n## not a heading\n```\n\n## B\nb\n";
        assert_eq!(headings(md), ["A", "B"]);
        assert_eq!(sections(md).iter().map(|s| s.text).collect::<String>(), md);
    }
}
