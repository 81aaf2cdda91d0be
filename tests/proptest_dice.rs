//! Properties of pbem-dice/v1 over seeds and labels chosen by proptest (tests/dice_statistics.rs
//! checks fixed seeds):
//!
//! - a die of n faces shows 1..=n, for every n, seed and label;
//! - the same seed and label give the same stream; a `DiceBox` roll is the plain `Roller`'s;
//! - a shuffle is a permutation;
//! - uniformity: the first die of many labels is uniform, for any seed and any label family;
//! - label independence: the dice of two labels that differ by a character are independent.
//!
//! The statistical properties use a chi-square bound at p = 1e-6 per case (Wilson-Hilferty), so fair
//! dice fail a run of this file (48 such cases) about once in twenty thousand runs; a face that comes
//! up half again as often as it should, or a label whose die copies another's, fails at once. Finer
//! biases are the business of tests/dice_statistics.rs, which throws far more dice.

use proptest::prelude::*;

use pbem::dice::{tuple_hash, Bytes32, Roller};
use pbem::engine::dice_box::DiceBox;

fn seed_of(n: u64) -> Bytes32 {
    tuple_hash(&[b"proptest seed", &n.to_be_bytes()])
}

fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// The chi-square value exceeded with probability 1e-6 with `df` degrees of freedom (the
/// Wilson-Hilferty approximation, a little above the true quantile for small `df`).
fn critical(df: usize) -> f64 {
    let z = 4.753_424; // the 1 - 1e-6 quantile of the standard normal
    let k = df as f64;
    let a = 2.0 / (9.0 * k);
    k * (1.0 - a + z * a.sqrt()).powi(3)
}

fn label_strategy() -> impl Strategy<Value = String> {
    "[a-z-]{1,12}(/[a-z]{1,6}=[A-Za-z0-9-]{1,10}){0,3}"
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_die_shows_one_of_its_faces(seed in any::<u64>(), label in label_strategy(), n in 1u32..=1_000_000) {
        let mut r = Roller::new(&seed_of(seed), &label);
        for _ in 0..8 {
            let face = r.die(n);
            prop_assert!((1..=n).contains(&face), "d{} showed {}", n, face);
        }
    }

    #[test]
    fn the_same_seed_and_label_give_the_same_stream_and_the_dice_box_rolls_it(
        seed in any::<u64>(),
        label in label_strategy(),
        sides in prop::collection::vec(1u32..100, 1..12),
    ) {
        let mut a = Roller::new(&seed_of(seed), &label);
        let mut b = Roller::new(&seed_of(seed), &label);
        let plain: Vec<u32> = sides.iter().map(|&n| a.die(n)).collect();
        let again: Vec<u32> = sides.iter().map(|&n| b.die(n)).collect();
        prop_assert_eq!(&plain, &again);
        let roll = DiceBox::new(seed_of(seed)).roll(&label, &sides).unwrap();
        let boxed: Vec<u32> = roll.dice.iter().map(|d| d.face).collect();
        prop_assert_eq!(plain, boxed);
    }

    #[test]
    fn a_shuffle_is_a_permutation(seed in any::<u64>(), label in label_strategy(), n in 0usize..200) {
        let mut items: Vec<usize> = (0..n).collect();
        Roller::new(&seed_of(seed), &label).shuffle(&mut items);
        let mut sorted = items.clone();
        sorted.sort_unstable();
        prop_assert_eq!(sorted, (0..n).collect::<Vec<_>>());
    }
}

proptest! {
    // Each case draws thousands of labelled streams.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn the_first_die_of_many_labels_is_uniform(seed in any::<u64>(), family in "[a-z]{1,8}", n in 2u32..=20) {
        let seed = seed_of(seed);
        let mut counts = vec![0u64; n as usize];
        for i in 0..(400 * n) {
            let face = Roller::new(&seed, &format!("{family}/unit={i}")).die(n);
            counts[face as usize - 1] += 1;
        }
        let chi = chi_square(&counts);
        prop_assert!(chi < critical(n as usize - 1), "d{}: chi-square {:.1} over {:?}", n, chi, counts);
    }

    #[test]
    fn the_dice_of_two_labels_a_character_apart_are_independent(
        seed in any::<u64>(),
        label in "[a-z]{1,8}/area=[A-Z][a-z]{2,8}/round=[1-9]",
        at in any::<prop::sample::Index>(),
        with in "[a-z0-9]",
    ) {
        // Another label: one character of `label` replaced.
        let chars: Vec<char> = label.chars().collect();
        let k = at.index(chars.len());
        let mut other: String = chars.iter().enumerate()
            .map(|(i, &c)| if i == k { with.chars().next().unwrap() } else { c })
            .collect();
        if other == label {
            other.push('x');
        }
        // Over 7,200 seeds, the pair (first d6 of one label, first d6 of the other) falls in each of
        // the 36 cells about equally often.
        let mut counts = [0u64; 36];
        for s in 0..7_200u64 {
            let seed = tuple_hash(&[b"independence", &seed.to_be_bytes(), &s.to_be_bytes()]);
            let a = Roller::new(&seed, &label).die(6) as usize - 1;
            let b = Roller::new(&seed, &other).die(6) as usize - 1;
            counts[a * 6 + b] += 1;
        }
        let chi = chi_square(&counts);
        prop_assert!(chi < critical(35), "{} and {}: chi-square {:.1}", label, other, chi);
    }
}

#[test]
fn the_bound_catches_a_biased_die_and_a_copied_one() {
    // A d6 that shows a 6 one time in 5.5 instead of one in 6, over as many throws as a case draws.
    let n = 6usize;
    let total = 400.0 * n as f64;
    let six = total / 5.5;
    let rest = (total - six) / 5.0;
    let counts: Vec<u64> = (0..n)
        .map(|i| if i == 5 { six as u64 } else { rest as u64 })
        .collect();
    // Too few throws to catch so small a bias per case...
    assert!(chi_square(&counts) < critical(n - 1));
    // ...but a 6 one time in 4 (half again as often as it should) is caught, and the joint bound
    // catches a die that copies the other.
    let mut counts = vec![(total * 3.0 / 20.0) as u64; n];
    counts[5] = (total / 4.0) as u64;
    assert!(chi_square(&counts) > critical(n - 1));
    let mut joint = [0u64; 36];
    for a in 0..6 {
        joint[a * 6 + a] = 1_200;
    }
    assert!(chi_square(&joint) > critical(35));
}

#[test]
fn the_critical_values_are_close_to_the_true_quantiles() {
    // Chi-square quantiles at 1 - 1e-6 (computed from the incomplete gamma function): df 1 -> 23.93,
    // df 5 -> 35.89, df 19 -> 63.68, df 35 -> 89.95. The approximation is never below them, and at most
    // 15% above.
    for (df, q) in [(1, 23.93), (5, 35.89), (19, 63.68), (35, 89.95)] {
        let c = critical(df);
        assert!(c >= q && c <= q * 1.15, "df {df}: {c} for {q}");
    }
}
