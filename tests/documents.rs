//! Issue 40.3: the documents. README.md is a landing page (the two set-up commands first, under 250
//! lines, a link to every guide), and every relative link of every document reaches a file that exists
//! and, where it names a heading (`#anchor`), a heading of that file.

use std::fs;
use std::path::{Path, PathBuf};

/// Every Markdown document of the repository that a reader is pointed to.
fn documents() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = [
        "README.md",
        "ORDERS.md",
        "MAIL.md",
        "ARCHITECTURE.md",
        "BENCHMARKS.md",
        "FUZZING.md",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for dir in ["docs", "docs/rules"] {
        let mut found: Vec<PathBuf> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        found.sort();
        out.extend(found);
    }
    out
}

/// The targets of a document's Markdown links `[text](target)`, with their line numbers.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        if in_code {
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            out.push((n + 1, after[..end].to_string()));
            rest = &after[end..];
        }
    }
    out
}

/// GitHub's anchor of a heading: lower case, spaces to hyphens, punctuation but `-` and `_` dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

fn anchors_of(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

#[test]
fn every_relative_link_of_every_document_reaches_a_file_and_its_heading() {
    let mut broken = Vec::new();
    for doc in documents() {
        let text = fs::read_to_string(&doc).unwrap();
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (file, heading) = match target.split_once('#') {
                Some((f, h)) => (f, Some(h)),
                None => (target.as_str(), None),
            };
            let path = if file.is_empty() {
                doc.clone()
            } else {
                doc.parent().unwrap().join(file)
            };
            if !path.exists() {
                broken.push(format!("{}:{line}: {target}: no such file", doc.display()));
                continue;
            }
            if let Some(h) = heading {
                if path.is_file() && !anchors_of(&path).iter().any(|a| a == h) {
                    broken.push(format!(
                        "{}:{line}: {target}: no such heading",
                        doc.display()
                    ));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_a_landing_page_that_opens_with_the_two_commands_and_links_every_guide() {
    let readme = fs::read_to_string("README.md").unwrap();
    let lines: Vec<&str> = readme.lines().collect();
    assert!(lines.len() < 250, "README.md has {} lines", lines.len());
    let first_block: Vec<&str> = lines
        .iter()
        .skip_while(|l| !l.starts_with("```"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .copied()
        .collect();
    assert_eq!(first_block, ["cargo run --release -- demo", "cargo test"]);
    let ci = fs::read_to_string(".ci/run").unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == "cargo test --locked"),
        "CI runs the README's test command"
    );
    for doc in documents().iter().skip(1) {
        let name = doc.to_str().unwrap();
        assert!(
            readme.contains(&format!("]({name})")),
            "README.md links no {name}"
        );
    }
}
