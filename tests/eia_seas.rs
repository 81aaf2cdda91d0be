//! EiA at sea through the binary, on a copy of ulm-1805 whose fleets are set for the scenario of issue
//! 37: Britain's 8 ships in the North Sea, France's two squadrons of 5 in the Channel. A stack of
//! fleets moves as one (EiA 6.2.3), a beaten fleet goes home to a port the victors alone watch (6.3.5).

use crate::support;

use std::fs;
use std::path::Path;

use support::{game, header, pbem, BRITAIN_PW, FRANCE_PW};

/// ulm-1805 at turn 1 with the fleets of the scenario (and Austria's and Russia's far away).
fn seas() -> (tempfile::TempDir, std::path::PathBuf) {
    let (t, dir) = game();
    let path = dir.join("turns/1/state.toml");
    let text = fs::read_to_string(&path).unwrap();
    let at = text.find("[[eia.fleet]]").unwrap();
    let end = text.find("[[eia.fleet]]\nid = \"AU-Flotilla\"").unwrap();
    let fleets = "[[eia.fleet]]\nid = \"GB-H\"\npower = \"britain\"\nships = 8\narea = \"North-Sea\"\n\n\
                  [[eia.fleet]]\nid = \"FR-A\"\npower = \"france\"\nships = 5\narea = \"English-Channel\"\n\n\
                  [[eia.fleet]]\nid = \"FR-B\"\npower = \"france\"\nships = 5\narea = \"English-Channel\"\n\n";
    fs::write(&path, format!("{}{fleets}{}", &text[..at], &text[end..])).unwrap();
    (t, dir)
}

/// Writes France's and Britain's orders (France's entropy line `entropy`) and resolves turn 1;
/// returns the turn log.
fn resolve(dir: &Path, france: &str, britain: &str, entropy: &str) -> String {
    let orders = dir.join("orders/1");
    fs::create_dir_all(&orders).unwrap();
    let f = format!(
        "{}entropy {entropy}\n{france}",
        header("france", FRANCE_PW, 1)
    );
    fs::write(orders.join("france.txt"), f).unwrap();
    let b = format!("{}{britain}", header("britain", BRITAIN_PW, 1));
    fs::write(orders.join("britain.txt"), b).unwrap();
    pbem()
        .args(["resolve", "--force", "--turn", "1"])
        .arg(dir)
        .assert()
        .success();
    fs::read_to_string(dir.join("turns/1/log.toml")).unwrap()
}

#[test]
fn eia_6_2_3_interception_weighs_the_moving_stack_not_one_fleet() {
    let (_t, dir) = seas();
    let log = resolve(
        &dir,
        "move FR-A with FR-B North-Sea\n",
        "standing tactics melee\n",
        "one",
    );
    // Britain's 8 ships do not try to intercept France's 10, which sail as one stack.
    assert!(!log.contains("to intercept"), "{log}");
    assert!(
        log.contains(
            "FR-A, FR-B (France, one stack of 10 ships) sail English-Channel - North-Sea."
        ),
        "{log}"
    );
    let next = fs::read_to_string(dir.join("turns/2/state.toml")).unwrap();
    assert_eq!(next.matches("area = \"North-Sea\"").count(), 3, "{next}");

    // The same squadrons on two lines are two moves: each of 5 ships is tried by the 8.
    let log = resolve(
        &dir,
        "move FR-A North-Sea\nmove FR-B North-Sea\n",
        "standing tactics melee\n",
        "one",
    );
    assert!(
        log.contains("GB-H (britain, 8 ships) tries to intercept FR-A (5 ships) at North-Sea"),
        "{log}"
    );
}

#[test]
fn eia_6_2_3_a_stack_names_only_fleets_of_its_own_in_its_own_area() {
    let (_t, dir) = seas();
    let orders = dir.join("orders/1");
    fs::create_dir_all(&orders).unwrap();
    let text = format!(
        "{}move FR-A with GB-H North-Sea\nmove FR-A with FR-A North-Sea\nmove FR-A with North-Sea\nmove FR-A with FR-B North-Sea\nmove FR-B North-Sea\n",
        header("france", FRANCE_PW, 1)
    );
    fs::write(orders.join("france.txt"), &text).unwrap();
    let out = pbem()
        .arg("check")
        .arg(&dir)
        .arg(orders.join("france.txt"))
        .output()
        .unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Britain's GB-H is answered as no fleet at all: France learns no id of Britain's.
    assert_eq!(
        said.matches("'with' names no fleet of yours").count(),
        2,
        "{said}"
    );
    assert!(said.contains("france.txt:5:11"), "{said}");
    assert!(said.contains("FR-A is named twice in this stack"), "{said}");
    assert!(said.contains("FR-B is already ordered to move"), "{said}");
    assert!(said.contains("france.txt:5:"), "{said}");
}

#[test]
fn eia_6_3_5_a_beaten_fleet_retreats_to_a_port_the_victors_alone_watch() {
    let (_t, dir) = seas();
    // France, 10 ships, attacks Britain's 8 in the North Sea; Britain, weaker, tries to evade. Under
    // some entropy it is caught and beaten: it goes home to Dover, next to the North Sea where the
    // victors lie, not "stays".
    for k in 0..40 {
        let log = resolve(
            &dir,
            "move FR-A with FR-B North-Sea\nengage North-Sea\n",
            "standing tactics melee\n",
            &format!("try {k}"),
        );
        if log.contains("France wins the battle at North-Sea")
            && log.contains("Great Britain retreats")
        {
            assert!(
                log.contains("Great Britain retreats from North-Sea to Dover (the nearest unblockaded friendly port): GB-H."),
                "{log}"
            );
            assert!(!log.contains("it stays"), "{log}");
            return;
        }
    }
    panic!("no entropy of 40 saw Britain beaten at sea");
}

#[test]
fn eia_6_2_an_enemy_port_out_of_sight_is_not_told_by_the_answer_and_stops_the_fleet_at_sea() {
    let (_t, dir) = seas();
    // Britain's GB-H in the Channel; Hamburg, beyond the North Sea, held by France: out of
    // Britain's sight (its units' areas and their neighbours), where Boulogne is in it.
    let path = dir.join("turns/1/state.toml");
    let text = fs::read_to_string(&path)
        .unwrap()
        .replace(
            "id = \"GB-H\"\npower = \"britain\"\nships = 8\narea = \"North-Sea\"",
            "id = \"GB-H\"\npower = \"britain\"\nships = 8\narea = \"English-Channel\"",
        )
        .replace("[control]\n", "[control]\nHamburg = \"france\"\n");
    fs::write(&path, text).unwrap();
    let answer = |line: &str| {
        let orders = support::write(
            dir.parent().unwrap(),
            "britain.txt",
            format!("{}{line}\n", header("britain", BRITAIN_PW, 1)),
        );
        let out = pbem().arg("check").arg(&dir).arg(&orders).output().unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    // The answer tells whose Boulogne is, which Britain sees, and not whose Hamburg is.
    let said = answer("move GB-H North-Sea Hamburg");
    assert!(said.contains("all 1 order(s) accepted"), "{said}");
    let said = answer("move GB-H Boulogne");
    assert!(said.contains("Boulogne is an enemy port"), "{said}");
    // The turn stops the fleet in the sea before the port, and tells Britain alone.
    let log = resolve(&dir, "", "move GB-H North-Sea Hamburg\n", "one");
    let told = "GB-H cannot enter Hamburg, an enemy port: it stays in North-Sea.";
    let at = log.find(told).unwrap_or_else(|| panic!("{log}"));
    let visible = log[at..]
        .lines()
        .find(|l| l.starts_with("visible_to"))
        .unwrap();
    assert_eq!(visible, "visible_to = [\"britain\"]", "{log}");
    let next = fs::read_to_string(dir.join("turns/2/state.toml")).unwrap();
    assert!(
        next.contains("id = \"GB-H\"\npower = \"britain\"\nships = 8\narea = \"North-Sea\""),
        "{next}"
    );
}
