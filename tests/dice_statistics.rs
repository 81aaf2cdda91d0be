//! Statistical checks of pbem-dice/v1 with fixed seeds, so they are deterministic: the dice are
//! uniform across labels, and shuffles reach every order about equally often.

use pbem::dice::{tuple_hash, Roller};

/// Pearson's chi-square statistic of observed counts against a uniform expectation.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

#[test]
fn six_hundred_thousand_d6_over_many_labels_are_uniform() {
    let seed = tuple_hash(&[b"statistics seed"]);
    let mut counts = [0u64; 6];
    for label in 0..6_000 {
        let mut r = Roller::new(&seed, &format!("combat/area=A{label}/round=1"));
        for _ in 0..100 {
            counts[r.die(6) as usize - 1] += 1;
        }
    }
    assert_eq!(counts.iter().sum::<u64>(), 600_000);
    // 5 degrees of freedom: the 0.999 quantile is 20.515.
    let chi = chi_square(&counts);
    assert!(chi < 20.515, "chi-square {chi} over {counts:?}");
}

#[test]
fn first_die_of_each_label_is_uniform_too() {
    // Label independence: the first d6 of 60,000 different labels.
    let seed = tuple_hash(&[b"another seed"]);
    let mut counts = [0u64; 6];
    for label in 0..60_000 {
        counts[Roller::new(&seed, &format!("reinforce/area=Ulm/unit=U{label}")).die(6) as usize
            - 1] += 1;
    }
    let chi = chi_square(&counts);
    assert!(chi < 20.515, "chi-square {chi} over {counts:?}");
}

#[test]
fn shuffles_of_five_hit_all_120_orders_about_equally() {
    let seed = tuple_hash(&[b"shuffle seed"]);
    let mut counts = vec![0u64; 120];
    for label in 0..120_000 {
        let mut items = [0usize, 1, 2, 3, 4];
        Roller::new(&seed, &format!("combat-order/n={label}")).shuffle(&mut items);
        // Lehmer code: the rank of the permutation.
        let mut rank = 0;
        for i in 0..5 {
            let smaller = items[i + 1..].iter().filter(|&&x| x < items[i]).count();
            rank = rank * (5 - i) + smaller;
        }
        counts[rank] += 1;
    }
    assert!(counts.iter().all(|&c| c > 0), "some order never came up");
    // 119 degrees of freedom: the 0.999 quantile is about 172.5.
    let chi = chi_square(&counts);
    assert!(chi < 172.5, "chi-square {chi}");
}

#[test]
fn a_biased_die_would_fail_the_test() {
    // The test above can fail: a die that shows a 6 one time in five instead of one in six fails it.
    let mut counts = [100_000u64; 6];
    counts[5] = 120_000;
    counts[0] = 80_000;
    assert!(chi_square(&counts) > 20.515);
}
