//! Issue 40.3: the documents. README.md is a landing page (the two set-up commands first, under 250
//! lines, a link to every guide), and every relative link of every document reaches a file that exists
//! and, where it names a heading (`#anchor`), a heading of that file; every command line the documents
//! and `--help` show is one pbem takes.

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

/// The command lines a document shows (`pbem <command> ...` in a code span, or a line of a code
/// block), with their line numbers: what a reader types after the document's word.
fn command_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_code = false;
    for (n, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            let line = line.trim_start().trim_start_matches("$ ");
            if line.starts_with("pbem ") {
                // A comment after the command (`# ...`, or `(...)` after spaces) is the document's.
                let line = line.split(" #").next().unwrap_or(line);
                let line = line.split("  (").next().unwrap_or(line);
                out.push((n + 1, line.trim_end().to_string()));
            }
            continue;
        }
        for (i, span) in line.split('`').enumerate() {
            if i % 2 == 1 && span.starts_with("pbem ") {
                out.push((n + 1, span.to_string()));
            }
        }
    }
    out
}

/// A shown command line as the words a shell would pass: quotes taken off, and the document's
/// placeholders made words (`<game>`, `DIR`: a word; `[--to <power>]`: its words; `a|b`: the first;
/// `...`, a redirection or an arrow and what follows it: left out).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line.trim();
    while !rest.is_empty() {
        let (word, after) = if let Some(quoted) = rest.strip_prefix('"') {
            let end = quoted.find('"').unwrap_or(quoted.len());
            (&quoted[..end], quoted.get(end + 1..).unwrap_or(""))
        } else if rest.starts_with('<') && rest.contains('>') {
            let end = rest.find('>').unwrap() + 1;
            (&rest[..end], &rest[end..])
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        };
        rest = after.trim_start();
        // A redirection, a pipe, a diagram's arrow: the command ended.
        if word.starts_with('>') || word.starts_with('|') || word == "&&" || word.ends_with("->") {
            break;
        }
        let word = word.trim_matches(|c| c == '[' || c == ']');
        let word = word.split('|').next().unwrap_or(word);
        if !word.is_empty() && word != "..." {
            out.push(word.to_string());
        }
    }
    out
}

/// Every command line the guides and `--help` show is one pbem takes: each names a command pbem has and only
/// options that command has, with values it accepts. A bare mention (`pbem rollback`, its
/// arguments left out) may lack what the command requires; nothing else may fail.
#[test]
fn every_command_line_the_guides_and_the_help_show_is_one_pbem_takes() {
    use clap::error::ErrorKind;
    let (mut checked, mut wrong) = (0, Vec::new());
    // The documents, and the examples of `pbem --help` and of each command's `--help` (as a block).
    let mut helps: Vec<(PathBuf, String)> = Vec::new();
    let mut root = pbem::commands::command();
    for sub in root.get_subcommands_mut() {
        let name = format!("pbem {} --help", sub.get_name());
        helps.push((name.into(), format!("```\n{}\n```", sub.render_long_help())));
    }
    helps.push((
        "pbem --help".into(),
        format!("```\n{}\n```", root.render_long_help()),
    ));
    let documents = documents().into_iter().map(|d| {
        let text = fs::read_to_string(&d).unwrap();
        (d, text)
    });
    for (doc, text) in documents.chain(helps) {
        for (n, line) in command_lines(&text) {
            let words = words(&line);
            // `pbem orders/header`, `pbem GITM-T1` are rule names, `pbem referee <a@b>` a sender:
            // not commands.
            let rule = |w: &str| w.contains('/') || w.starts_with(|c: char| c.is_ascii_uppercase());
            let sender = words.iter().any(|w| w.starts_with('<') && w.contains('@'));
            if words.len() < 2 || rule(&words[1]) || words[1] == "<command>" || sender {
                continue;
            }
            checked += 1;
            // An option named alone (`pbem check --report`) is a mention of it.
            let mentions_an_option = words.last().is_some_and(|w| w.starts_with("--"));
            // A placeholder (`N`, `<game>`) where a number must come stands for one.
            let placeholder = |e: &clap::Error| {
                e.get(clap::error::ContextKind::InvalidValue)
                    .is_some_and(|v| {
                        let v = v.to_string();
                        v.starts_with('<') || v.chars().all(|c| c.is_ascii_uppercase() || c == ':')
                    })
            };
            match pbem::commands::command().try_get_matches_from(&words) {
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        ErrorKind::MissingRequiredArgument
                            | ErrorKind::DisplayHelp
                            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
                            | ErrorKind::DisplayVersion
                    ) || (mentions_an_option && e.kind() == ErrorKind::InvalidValue)
                        || (e.kind() == ErrorKind::ValueValidation && placeholder(&e)) => {}
                Err(e) => wrong.push(format!(
                    "{}:{n}: `{line}` ({:?}): {}",
                    doc.display(),
                    e.kind(),
                    e.to_string().lines().next().unwrap_or("")
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "command lines pbem does not take:\n{}",
        wrong.join("\n")
    );
    assert!(checked > 100, "only {checked} command lines found");
}
