//! Work spread over the machine's cores with its results taken in order: the reports of a turn's
//! powers are made side by side, and written one after the other as if made one by one, so that
//! the bytes and the order of the files never depend on how many cores there are. The turn's last
//! files (the summary, the next state, the log in parts) are made the same way.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex, PoisonError};

use anyhow::{anyhow, Result};

/// The threads to make a turn's files on: the machine's cores, at most 8; `PBEM_THREADS` sets
/// another number (1: one after the other, on the calling thread).
pub fn threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::env::var("PBEM_THREADS")
        .ok()
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(cores.min(8))
        .max(1)
}

/// `a()` and `b()` side by side, `b` on a thread of its own, when there are `threads` (more than
/// one); else one after the other on the calling thread. Their results, in that order: the same
/// whichever finishes first. For two pieces of work that a turn would otherwise do on one core while
/// the other waits (a turn's sight before its reports, `report::TurnSight::new`).
pub fn both<A, B>(threads: usize, a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B)
where
    B: Send,
{
    if threads <= 1 {
        let a = a();
        return (a, b());
    }
    std::thread::scope(|scope| {
        let b = scope.spawn(b);
        let a = a();
        match b.join() {
            Ok(b) => (a, b),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Makes `make(item)` of every item on `threads` threads and hands the results to `take` in the
/// items' order. At most `threads + 1` items are made or wait to be taken at a time, so memory stays
/// what a few items need (a report of a power that sees much is a hundred megabytes). The first error, of `make` or of `take`, stops the work and is returned; the results before
/// it have been taken.
pub fn map_in_order<T, R>(
    items: &[T],
    threads: usize,
    make: impl Fn(&T) -> Result<R> + Sync,
    mut take: impl FnMut(R) -> Result<()>,
) -> Result<()>
where
    T: Sync,
    R: Send,
{
    if threads <= 1 || items.len() <= 1 {
        for item in items {
            take(make(item)?)?;
        }
        return Ok(());
    }
    let window = threads + 1;
    let stop = AtomicBool::new(false);
    let (ask, asked) = mpsc::channel::<usize>();
    let asked = Mutex::new(asked);
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::sync_channel::<(usize, Result<R>)>(window);
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let done = done.clone();
                let (asked, make, stop) = (&asked, &make, &stop);
                scope.spawn(move || loop {
                    let next = asked.lock().unwrap_or_else(PoisonError::into_inner).recv();
                    let Ok(i) = next else { break };
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    // A bug that panics in one report is an error of the turn, not a hang.
                    let made = std::panic::catch_unwind(AssertUnwindSafe(|| make(&items[i])))
                        .unwrap_or_else(|_| Err(anyhow!("a thread making the reports failed")));
                    if done.send((i, made)).is_err() {
                        break;
                    }
                })
            })
            .collect();
        drop(done);
        let mut asked_for = 0;
        while asked_for < items.len().min(window) {
            let _ = ask.send(asked_for);
            asked_for += 1;
        }
        let mut waiting = BTreeMap::new();
        let mut next = 0;
        let mut outcome = Ok(());
        'taking: for (i, made) in &finished {
            waiting.insert(i, made);
            while let Some(made) = waiting.remove(&next) {
                if let Err(e) = made.and_then(&mut take) {
                    outcome = Err(e);
                    break 'taking;
                }
                next += 1;
                if asked_for < items.len() {
                    let _ = ask.send(asked_for);
                    asked_for += 1;
                }
            }
            if next == items.len() {
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
        drop(ask);
        drop(finished);
        let crashed = workers.into_iter().any(|w| w.join().is_err());
        match outcome {
            Err(e) => Err(e),
            Ok(()) if crashed => Err(anyhow!("a thread making the reports failed")),
            Ok(()) if next < items.len() => Err(anyhow!("the reports were not all made")),
            Ok(()) => Ok(()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two pieces of work give their results in their order, on one thread or two; the second runs
    /// on a thread of its own only when there are threads to spare.
    #[test]
    fn both_gives_the_two_results_in_order_whatever_the_threads() {
        let caller = std::thread::current().id();
        for threads in [1, 2, 4] {
            let (a, (b, on)) = both(
                threads,
                || "first",
                || (vec![1, 2, 3], std::thread::current().id()),
            );
            assert_eq!((a, b), ("first", vec![1, 2, 3]));
            assert_eq!(on == caller, threads == 1, "{threads} threads");
        }
    }

    #[test]
    fn results_come_in_the_items_order_whatever_the_threads() {
        let items: Vec<u64> = (0..200).collect();
        for threads in [1, 2, 3, 8] {
            let mut got = Vec::new();
            map_in_order(
                &items,
                threads,
                |&i| {
                    // Uneven work, so that later items often finish first.
                    std::thread::sleep(std::time::Duration::from_micros((i * 7919) % 300));
                    Ok(i * i)
                },
                |r| {
                    got.push(r);
                    Ok(())
                },
            )
            .unwrap();
            assert_eq!(got, items.iter().map(|i| i * i).collect::<Vec<_>>());
        }
    }

    #[test]
    fn the_first_error_stops_the_work_and_what_came_before_it_is_taken() {
        let items: Vec<u32> = (0..100).collect();
        for threads in [1, 2, 4] {
            let mut got = Vec::new();
            let made = std::sync::atomic::AtomicUsize::new(0);
            let e = map_in_order(
                &items,
                threads,
                |&i| {
                    made.fetch_add(1, Ordering::Relaxed);
                    if i == 10 {
                        Err(anyhow!("item 10 is bad"))
                    } else {
                        Ok(i)
                    }
                },
                |r| {
                    got.push(r);
                    Ok(())
                },
            )
            .unwrap_err();
            assert_eq!(e.to_string(), "item 10 is bad");
            assert_eq!(got, (0..10).collect::<Vec<_>>());
            assert!(
                made.load(Ordering::Relaxed) <= 10 + 1 + threads,
                "work went on after the error"
            );
        }
    }

    #[test]
    fn a_panic_in_the_work_is_an_error_not_a_hang() {
        let items: Vec<u32> = (0..50).collect();
        let e = map_in_order(
            &items,
            2,
            |&i| {
                assert!(i != 7, "a bug in item 7");
                Ok(i)
            },
            |_| Ok(()),
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "a thread making the reports failed");
    }

    #[test]
    fn an_error_of_the_taker_stops_the_work() {
        let items: Vec<u32> = (0..100).collect();
        let mut taken = 0;
        let e = map_in_order(
            &items,
            2,
            |&i| Ok(i),
            |i| {
                taken += 1;
                if i == 5 {
                    Err(anyhow!("disk full"))
                } else {
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert_eq!(e.to_string(), "disk full");
        assert_eq!(taken, 6);
    }
}
