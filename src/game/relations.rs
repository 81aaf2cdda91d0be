//! The relation between two powers, one of the engine's shared keys of `state.toml`: allied, neutral
//! or hostile. EiA and PoG know only friend or enemy, which `alliances` gives (powers in one list are
//! allied, every other pair hostile); a ruleset with neutral sides (GITM: neutrals block in their home
//! nation) lists its pairs in `[relations]`:
//!
//! ```toml
//! [relations]
//! allied = [["venice", "papacy"]]
//! hostile = [["venice", "milan"]]
//! neutral = [["venice", "florence"], ["milan", "florence"]]
//! ```
//!
//! A pair not listed keeps today's meaning: allied when an alliance holds both, hostile otherwise.

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::diag::Diagnostic;

/// How two powers stand to each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Relation {
    /// Friends: they do not fight each other and may stand together. A power is allied with itself.
    Allied,
    /// Neither friend nor enemy: they do not fight unless one attacks, and a neutral blocks where the
    /// ruleset says so.
    Neutral,
    /// Enemies: the default of two powers no alliance and no `[relations]` entry ties.
    Hostile,
}

impl Relation {
    /// The word of `[relations]`: `allied`, `neutral`, `hostile`.
    pub fn word(self) -> &'static str {
        match self {
            Relation::Allied => "allied",
            Relation::Neutral => "neutral",
            Relation::Hostile => "hostile",
        }
    }
}

/// A pair of powers as `[relations]` lists it, each name with its place in the file.
pub type Pair = [Spanned<String>; 2];

/// The `[relations]` table of a state: pairs of powers by relation, each pair in either order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Relations {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allied: Vec<Pair>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub neutral: Vec<Pair>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hostile: Vec<Pair>,
}

impl Relations {
    pub fn is_empty(&self) -> bool {
        self.allied.is_empty() && self.neutral.is_empty() && self.hostile.is_empty()
    }

    /// Every listed pair with its relation, in file order by relation (allied, neutral, hostile).
    pub fn pairs(&self) -> impl Iterator<Item = (Relation, &Pair)> {
        let allied = self.allied.iter().map(|p| (Relation::Allied, p));
        let neutral = self.neutral.iter().map(|p| (Relation::Neutral, p));
        let hostile = self.hostile.iter().map(|p| (Relation::Hostile, p));
        allied.chain(neutral).chain(hostile)
    }

    /// The relation `[relations]` lists for `a` and `b` (in either order), if it lists one.
    pub fn listed(&self, a: &str, b: &str) -> Option<Relation> {
        self.pairs()
            .find(|(_, [x, y])| {
                (x.get_ref() == a && y.get_ref() == b) || (x.get_ref() == b && y.get_ref() == a)
            })
            .map(|(r, _)| r)
    }
}

/// The relation of `a` and `b`: the same power is allied with itself; a pair `[relations]` lists has
/// its relation; otherwise two powers in one of `alliances` are allied, and any other pair hostile
/// (the friend-or-enemy of EiA and PoG).
pub fn relation(relations: &Relations, alliances: &[Vec<String>], a: &str, b: &str) -> Relation {
    if a == b {
        return Relation::Allied;
    }
    if let Some(r) = relations.listed(a, b) {
        return r;
    }
    let allied = alliances
        .iter()
        .any(|g| g.iter().any(|p| p == a) && g.iter().any(|p| p == b));
    if allied {
        Relation::Allied
    } else {
        Relation::Hostile
    }
}

/// The problems of `[relations]`, each located at the name at fault: an unknown power, a power
/// related to itself, a pair listed twice with different relations (or listed as neutral or hostile
/// while an alliance holds both), and a pair listed twice alike.
pub fn check(relations: &Relations, alliances: &[Vec<String>], powers: &[&str]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut seen: Vec<(Relation, &Pair)> = Vec::new();
    for (rel, pair) in relations.pairs() {
        let [a, b] = pair;
        let mut known = true;
        for p in pair {
            if !powers.contains(&p.get_ref().as_str()) {
                known = false;
                out.push(
                    Diagnostic::error(
                        format!(
                            "[relations] {} names unknown power '{}'",
                            rel.word(),
                            p.get_ref()
                        ),
                        p.span(),
                    )
                    .hint(
                        match crate::diag::did_you_mean(p.get_ref(), powers.iter().copied()) {
                            Some(m) => format!("did you mean '{m}'?"),
                            None => format!("the powers are {}", powers.join(", ")),
                        },
                    ),
                );
            }
        }
        if a.get_ref() == b.get_ref() {
            out.push(
                Diagnostic::error(
                    format!(
                        "[relations] {} relates '{}' to itself",
                        rel.word(),
                        a.get_ref()
                    ),
                    b.span(),
                )
                .hint("a pair names two different powers; a power is always allied with itself"),
            );
            continue;
        }
        let same_pair = |[x, y]: &Pair| {
            (x.get_ref() == a.get_ref() && y.get_ref() == b.get_ref())
                || (x.get_ref() == b.get_ref() && y.get_ref() == a.get_ref())
        };
        if let Some((first, _)) = seen.iter().find(|s| same_pair(s.1)) {
            let message = if *first == rel {
                format!(
                    "[relations] lists '{}' and '{}' twice as {}",
                    a.get_ref(),
                    b.get_ref(),
                    rel.word()
                )
            } else {
                format!(
                    "[relations] lists '{}' and '{}' as {} and as {}",
                    a.get_ref(),
                    b.get_ref(),
                    first.word(),
                    rel.word()
                )
            };
            out.push(
                Diagnostic::error(message, a.span().start..b.span().end)
                    .hint("list each pair of powers once, under the one relation they have"),
            );
            continue;
        }
        seen.push((rel, pair));
        if known && rel != Relation::Allied {
            let allied = alliances
                .iter()
                .any(|g| g.iter().any(|p| p == a.get_ref()) && g.iter().any(|p| p == b.get_ref()));
            if allied {
                out.push(
                    Diagnostic::error(
                        format!(
                            "[relations] lists '{}' and '{}' as {}, but an alliance holds both",
                            a.get_ref(),
                            b.get_ref(),
                            rel.word()
                        ),
                        a.span().start..b.span().end,
                    )
                    .hint("take them out of the alliance, or out of [relations]"),
                );
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Source;

    const POWERS: [&str; 4] = ["venice", "milan", "florence", "papacy"];

    #[derive(Deserialize)]
    struct Part {
        #[serde(default)]
        alliances: Vec<Vec<String>>,
        #[serde(default)]
        relations: Relations,
    }

    fn part(text: &str) -> Part {
        toml::from_str(text).unwrap()
    }

    /// Each problem with the line and column it points at.
    fn problems(text: &str) -> Vec<(String, (usize, usize))> {
        let p = part(text);
        let src = Source::new("state.toml", text);
        check(&p.relations, &p.alliances, &POWERS)
            .into_iter()
            .map(|d| (d.message.clone(), src.line_col(d.span.start)))
            .collect()
    }

    const GITM: &str = r#"
alliances = [["venice", "papacy"]]

[relations]
neutral = [["florence", "venice"]]
hostile = [["milan", "venice"]]
"#;

    #[test]
    fn the_three_relations_in_either_order() {
        let p = part(GITM);
        let r = |a, b| relation(&p.relations, &p.alliances, a, b);
        assert_eq!(r("venice", "papacy"), Relation::Allied);
        assert_eq!(r("papacy", "venice"), Relation::Allied);
        assert_eq!(r("venice", "florence"), Relation::Neutral);
        assert_eq!(r("florence", "venice"), Relation::Neutral);
        assert_eq!(r("milan", "venice"), Relation::Hostile);
        assert_eq!(r("venice", "milan"), Relation::Hostile);
        assert_eq!(r("venice", "venice"), Relation::Allied);
        assert!(problems(GITM).is_empty());
    }

    #[test]
    fn without_relations_a_pair_is_allied_in_an_alliance_and_hostile_otherwise() {
        let p = part(r#"alliances = [["venice", "papacy", "milan"]]"#);
        assert!(p.relations.is_empty());
        let r = |a, b| relation(&p.relations, &p.alliances, a, b);
        assert_eq!(r("milan", "papacy"), Relation::Allied);
        assert_eq!(r("florence", "papacy"), Relation::Hostile);
    }

    #[test]
    fn allied_in_relations_without_an_alliance() {
        let p = part("[relations]\nallied = [[\"milan\", \"florence\"]]\n");
        assert_eq!(
            relation(&p.relations, &p.alliances, "florence", "milan"),
            Relation::Allied
        );
    }

    #[test]
    fn an_unknown_power_is_located_with_a_hint() {
        let text = "[relations]\nneutral = [[\"venice\", \"florense\"]]\n";
        let found = problems(text);
        assert_eq!(
            found,
            vec![(
                "[relations] neutral names unknown power 'florense'".to_string(),
                (2, 23)
            )]
        );
        let p = part(text);
        let d = &check(&p.relations, &p.alliances, &POWERS)[0];
        assert_eq!(d.hint.as_deref(), Some("did you mean 'florence'?"));
    }

    #[test]
    fn a_power_related_to_itself_is_refused() {
        let found = problems("[relations]\nhostile = [[\"milan\", \"milan\"]]\n");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].0, "[relations] hostile relates 'milan' to itself");
        assert_eq!(found[0].1, (2, 22));
    }

    #[test]
    fn a_pair_listed_twice_with_different_relations_is_refused() {
        let text = "[relations]\nneutral = [[\"milan\", \"venice\"]]\nhostile = [[\"venice\", \"milan\"]]\n";
        let found = problems(text);
        assert_eq!(
            found,
            vec![(
                "[relations] lists 'venice' and 'milan' as neutral and as hostile".to_string(),
                (3, 13)
            )]
        );
        let twice =
            problems("[relations]\nneutral = [[\"milan\", \"venice\"], [\"milan\", \"venice\"]]\n");
        assert_eq!(
            twice[0].0,
            "[relations] lists 'milan' and 'venice' twice as neutral"
        );
    }

    #[test]
    fn a_pair_an_alliance_holds_cannot_be_neutral_or_hostile() {
        let found = problems(
            "alliances = [[\"venice\", \"papacy\"]]\n[relations]\nneutral = [[\"papacy\", \"venice\"]]\n",
        );
        assert_eq!(found.len(), 1);
        assert!(
            found[0].0.contains("but an alliance holds both"),
            "{found:?}"
        );
        assert_eq!(found[0].1, (3, 13));
    }
}
