//! File-system primitives that keep a game folder consistent: atomic writes (temporary file, fsync,
//! rename, fsync of the folder), batches of them that share their syncs ([`Batch`]) and the game lock. Nothing else in pbem writes a game file directly.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, Context, Result};

/// Writes `bytes` to `path` so that a crash leaves either the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_mode(path, bytes, None)
}

/// As [`write_atomic`], with Unix permissions (0600 for secrets).
pub fn write_atomic_mode(path: &Path, bytes: &[u8], mode: Option<u32>) -> Result<()> {
    let dir = path
        .parent()
        .ok_or_else(|| anyhow!("{} has no folder", path.display()))?;
    create_dirs(dir)?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".tmp-")
        .tempfile_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    #[cfg(unix)]
    if let Some(mode) = mode {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(tmp.path(), fs::Permissions::from_mode(mode))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    tmp.write_all(bytes)
        .with_context(|| format!("cannot write {}", path.display()))?;
    tmp.as_file().sync_all()?;
    crash_point(path);
    tmp.persist(path)
        .map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))?;
    sync_dir(dir)
}

/// Files written together, atomically each, with the syncs of the whole batch shared: [`Batch::put`]
/// writes each file to a temporary file beside it, unsynced; [`Batch::commit`] flushes them all at
/// once, renames each into place and flushes the folders, so that a batch of n files costs two syncs
/// of the file system (Linux) or n file syncs made together and one per folder, not 2n syncs one
/// after the other. A crash before `commit` ends leaves every file either old or new (and temporary files,
/// which the next [`GameLock`] removes); what must come last, such as a turn's record, is written
/// after the commit.
#[derive(Default)]
pub struct Batch {
    /// (temporary file, where it goes), in the order they were put.
    pending: Vec<(tempfile::TempPath, PathBuf)>,
    /// The last files put, still open (Linux), whose pages are let go of once written ([`let_go`]).
    written: std::collections::VecDeque<File>,
}

/// How many files a batch holds open after writing them before it lets their pages go from the
/// page cache: by then the disk has written them (a page not yet written stays).
const LET_GO_AFTER: usize = 32;

impl Batch {
    pub fn new() -> Batch {
        Batch::default()
    }

    /// Writes `bytes` to a temporary file beside `path`; `commit` puts it in place.
    pub fn put(&mut self, path: &Path, bytes: &[u8]) -> Result<()> {
        let dir = path
            .parent()
            .ok_or_else(|| anyhow!("{} has no folder", path.display()))?;
        create_dirs(dir)?;
        let mut tmp = tempfile::Builder::new()
            .prefix(".tmp-")
            .tempfile_in(dir)
            .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
        tmp.write_all(bytes)
            .with_context(|| format!("cannot write {}", path.display()))?;
        let_go(tmp.as_file());
        // Linux only: elsewhere a file held open may not be renamed.
        if cfg!(target_os = "linux") {
            if let Ok(file) = tmp.as_file().try_clone() {
                self.written.push_back(file);
            }
            if self.written.len() > LET_GO_AFTER {
                self.written.pop_front().iter().for_each(let_go);
            }
        }
        // The file is closed here (a batch may hold thousands) and opened again to be synced.
        self.pending
            .push((tmp.into_temp_path(), path.to_path_buf()));
        Ok(())
    }

    /// Number of files put and not yet committed.
    pub fn len(&self) -> usize {
        self.pending.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Flushes every file put, renames each into place in the order put, then flushes the folders.
    /// On Linux each flush is one `syncfs` of the file system that holds the folders (one sync for
    /// the whole batch, however many files it holds); elsewhere the files are synced together
    /// ([`sync_files`]) and each folder once.
    pub fn commit(self) -> Result<()> {
        let dirs: std::collections::BTreeSet<PathBuf> = self
            .pending
            .iter()
            .filter_map(|(_, path)| path.parent().map(Path::to_path_buf))
            .collect();
        if !sync_file_systems(&dirs)? {
            let tmps: Vec<&Path> = self.pending.iter().map(|(t, _)| t.as_ref()).collect();
            sync_files(&tmps)?;
        }
        // Written now, every one.
        self.written.iter().for_each(let_go);
        drop(self.written);
        for (tmp, path) in self.pending {
            crash_point(&path);
            tmp.persist(&path)
                .map_err(|e| anyhow!("cannot write {}: {}", path.display(), e.error))?;
        }
        if !sync_file_systems(&dirs)? {
            dirs.iter().try_for_each(|d| sync_dir(d))?;
        }
        Ok(())
    }
}

/// `POSIX_FADV_DONTNEED` on a file of the batch: the kernel starts writing its pages out to the
/// disk now, and lets go of those already written. [`Batch::put`] asks it of each file as soon as
/// it is written, and again [`LET_GO_AFTER`] files later. Without it the kernel holds a turn's files
/// until a tenth of the memory is unwritten or the batch's sync, which then waits for all of them,
/// and each file takes new memory, which a virtual machine's host may have to find first (a
/// 1,000-power turn of 3.9 GB on ext4: issue 18). A hint, nothing more: tmpfs ignores it, and
/// the batch's sync still makes every file durable.
#[cfg(target_os = "linux")]
fn let_go(file: &File) {
    let _ = rustix::fs::fadvise(file, 0, None, rustix::fs::Advice::DontNeed);
}

#[cfg(not(target_os = "linux"))]
fn let_go(_file: &File) {}

/// Flushes the file systems that hold `dirs`, each once (`syncfs`: its files' data and its folders'
/// entries); false where the system has no such call, and the caller syncs file by file.
#[cfg(target_os = "linux")]
fn sync_file_systems(dirs: &std::collections::BTreeSet<PathBuf>) -> Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let mut done = std::collections::BTreeSet::new();
    for d in dirs {
        let dev = fs::metadata(d)
            .with_context(|| format!("cannot read {}", d.display()))?
            .dev();
        if done.insert(dev) {
            let folder = File::open(d).with_context(|| format!("cannot open {}", d.display()))?;
            rustix::fs::syncfs(&folder)
                .map_err(std::io::Error::from)
                .with_context(|| format!("cannot sync the file system of {}", d.display()))?;
        }
    }
    Ok(true)
}

#[cfg(not(target_os = "linux"))]
fn sync_file_systems(_dirs: &std::collections::BTreeSet<PathBuf>) -> Result<bool> {
    Ok(false)
}

/// `create_dir_all`, then flushes the parent of every folder it made: after a power cut, a file
/// synced in a new folder must not be lost with the folder's own entry.
pub fn create_dirs(dir: &Path) -> Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    let mut made = Vec::new();
    let mut d = dir;
    while !d.as_os_str().is_empty() && !d.exists() {
        made.push(d);
        match d.parent() {
            Some(p) => d = p,
            None => break,
        }
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for new in made.iter().rev() {
        match new.parent() {
            Some(p) if !p.as_os_str().is_empty() => sync_dir(p)?,
            Some(_) => sync_dir(Path::new("."))?,
            None => {}
        }
    }
    Ok(())
}

/// Flushes files to disk, several at a time: the file system then commits them together (ext4 and
/// xfs share one journal commit among the syncs waiting for it), where one after the other each
/// costs a commit of its own.
pub fn sync_files(paths: &[&Path]) -> Result<()> {
    sync_files_on(paths, 16)
}

/// As [`sync_files`], on at most `threads` threads: the more syncs wait together, the fewer journal
/// commits the file system makes (each thread mostly waits for the disk).
pub fn sync_files_on(paths: &[&Path], threads: usize) -> Result<()> {
    let threads = threads.max(1);
    if paths.len() <= 1 {
        return paths.iter().try_for_each(|p| sync_file(p));
    }
    let chunk = paths.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = paths
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().try_for_each(|p| sync_file(p))))
            .collect();
        handles.into_iter().try_for_each(|h| {
            h.join()
                .unwrap_or_else(|_| Err(anyhow!("a thread syncing files failed")))
        })
    })
}

fn sync_file(path: &Path) -> Result<()> {
    File::open(path)
        .and_then(|f| f.sync_all())
        .with_context(|| format!("cannot sync {}", path.display()))
}

/// Flushes a folder's entries (the rename) to disk.
pub fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    File::open(dir)
        .and_then(|d| d.sync_all())
        .with_context(|| format!("cannot sync {}", dir.display()))?;
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// Test hook for the crash tests: with `PBEM_CRASH_BEFORE=<file name>` set, the process aborts right
/// before that file is put in place, as a power cut would; with `<file name>#<n>`, before the n-th
/// time it is (a ledger written more than once, for instance).
pub fn crash_point(path: &Path) {
    static SEEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let Some(wanted) = std::env::var_os("PBEM_CRASH_BEFORE") else {
        return;
    };
    let wanted = wanted.to_string_lossy().into_owned();
    let (name, nth) = match wanted.rsplit_once('#') {
        Some((name, n)) => (name, n.parse::<usize>().unwrap_or(1)),
        None => (wanted.as_str(), 1),
    };
    if path
        .file_name()
        .is_some_and(|f| f.to_string_lossy() == name)
        && SEEN.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 >= nth
    {
        std::process::abort();
    }
}

/// The lock of a game folder, held for as long as this value lives. Taken again on the thread that
/// holds it (a command made of steps that each lock, such as `pbem turn`), it is the same lock: the
/// inner value holds nothing and the lock is released only when the outer one is dropped, so that no
/// other `pbem` can slip in between the steps.
pub struct GameLock {
    _file: Option<File>,
    path: PathBuf,
    /// The folder this value took the lock of (`None` for a lock taken again).
    held: Option<PathBuf>,
}

thread_local! {
    /// The game folders whose lock this thread holds.
    static HELD: std::cell::RefCell<std::collections::BTreeSet<PathBuf>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
}

impl GameLock {
    /// Takes the lock, or fails at once if another `pbem` holds it.
    pub fn acquire(game_dir: &Path) -> Result<GameLock> {
        let path = game_dir.join(".lock");
        let key = game_dir
            .canonicalize()
            .unwrap_or_else(|_| game_dir.to_path_buf());
        if HELD.with_borrow(|h| h.contains(&key)) {
            return Ok(GameLock {
                _file: None,
                path,
                held: None,
            });
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("cannot open the lock file {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {
                remove_temporaries(game_dir);
                HELD.with_borrow_mut(|h| h.insert(key.clone()));
                Ok(GameLock {
                    _file: Some(file),
                    path,
                    held: Some(key),
                })
            }
            Err(fs::TryLockError::WouldBlock) => Err(anyhow!(
                "another pbem is working on this game (lock held on {}); wait for it to finish",
                path.display()
            )),
            Err(fs::TryLockError::Error(e)) => Err(anyhow!("cannot lock {}: {e}", path.display())),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for GameLock {
    fn drop(&mut self) {
        if let Some(key) = self.held.take() {
            HELD.with_borrow_mut(|h| h.remove(&key));
        }
    }
}

/// Removes the temporary files (`.tmp-*`) a crash left anywhere in the game folder: only a writer
/// holding the lock makes them, so once it is ours none is in use. A `.tmp-*` in `secret/` is a whole
/// copy of a secret. Best effort: a file that cannot be removed stays, as before.
fn remove_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_dir() {
            remove_temporaries(&e.path());
        } else if kind.is_file() && e.file_name().to_string_lossy().starts_with(".tmp-") {
            let _ = fs::remove_file(e.path());
        }
    }
}

/// Copies a folder tree (used by `new` and `demo`), skipping the lock and temporary files.
pub fn copy_tree(from: &Path, to: &Path) -> Result<()> {
    fs::create_dir_all(to).with_context(|| format!("cannot create {}", to.display()))?;
    for e in sorted_entries(from)? {
        let name = e.file_name();
        let name_s = name.to_string_lossy();
        if name_s == ".lock" || name_s.starts_with(".tmp-") {
            continue;
        }
        let target = to.join(&name);
        if e.file_type()?.is_dir() {
            copy_tree(&e.path(), &target)?;
        } else {
            fs::copy(e.path(), &target)
                .with_context(|| format!("cannot copy {}", e.path().display()))?;
        }
    }
    Ok(())
}

/// The entries of a folder, sorted by name (the order `read_dir` gives depends on the file system).
pub fn sorted_entries(dir: &Path) -> Result<Vec<fs::DirEntry>> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .collect::<std::io::Result<_>>()?;
    entries.sort_by_key(|e| e.file_name());
    Ok(entries)
}

/// The names and paths of a folder's entries, sorted by name; none when the folder does not exist
/// (a store not written yet).
pub fn sorted_names(dir: &Path) -> std::io::Result<Vec<(String, std::path::PathBuf)>> {
    let entries = match fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e),
    };
    let mut names = Vec::new();
    for e in entries {
        let e = e?;
        names.push((e.file_name().to_string_lossy().into_owned(), e.path()));
    }
    names.sort();
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15.5: `pbem turn` holds one lock over its steps; each step taking it again on the same
    /// thread gets the same lock, and another taker is refused until the outer one is dropped.
    #[test]
    fn a_lock_taken_again_on_its_thread_is_the_same_lock() {
        let dir = tempfile::tempdir().unwrap();
        let outer = GameLock::acquire(dir.path()).unwrap();
        {
            let _step = GameLock::acquire(dir.path()).unwrap();
        }
        let path = dir.path().to_path_buf();
        let other = std::thread::spawn(move || GameLock::acquire(&path).map(|_| ()));
        let refused = other.join().unwrap().unwrap_err().to_string();
        assert!(
            refused.contains("another pbem is working on this game"),
            "{refused}"
        );
        drop(outer);
        let path = dir.path().to_path_buf();
        std::thread::spawn(move || GameLock::acquire(&path).map(|_| ()))
            .join()
            .unwrap()
            .unwrap();
    }

    #[test]
    fn taking_the_lock_removes_the_temporary_files_a_crash_left() {
        let dir = tempfile::tempdir().unwrap();
        let g = dir.path();
        for f in [
            "secret/.tmp-a1b2c3",
            "turns/2/.tmp-x",
            "turns/1/reports/.tmp-y",
            "turns/1/record.toml",
            "secret/2.key",
            "mail/outbox/.hidden.eml",
            "mail/outbox/t0001-report-p0.eml",
        ] {
            write_atomic(&g.join(f), b"x").unwrap();
        }
        let _lock = GameLock::acquire(g).unwrap();
        for f in [
            "secret/.tmp-a1b2c3",
            "turns/2/.tmp-x",
            "turns/1/reports/.tmp-y",
        ] {
            assert!(!g.join(f).exists(), "{f}");
        }
        for f in [
            "turns/1/record.toml",
            "secret/2.key",
            "mail/outbox/.hidden.eml",
            "mail/outbox/t0001-report-p0.eml",
        ] {
            assert!(g.join(f).is_file(), "{f}");
        }
    }

    /// `create_dirs` makes every missing folder, from an absolute or a relative path, and is happy
    /// with folders that exist (the flushes of their parents are not observable in a test).
    #[test]
    fn create_dirs_makes_what_is_missing() {
        let dir = tempfile::tempdir().unwrap();
        let deep = dir.path().join("a/b/c");
        create_dirs(&deep).unwrap();
        assert!(deep.is_dir());
        create_dirs(&deep).unwrap();
        create_dirs(&dir.path().join("a/b/d")).unwrap();
        assert!(dir.path().join("a/b/d").is_dir());
        create_dirs(Path::new(".")).unwrap();
        let here = std::env::current_dir().unwrap();
        let rel = dir.path().join("r/s");
        let rel = pathdiff(&rel, &here);
        create_dirs(&rel).unwrap();
        assert!(dir.path().join("r/s").is_dir());
    }

    /// `to` from `from` with `..`, for a relative path to test with.
    fn pathdiff(to: &Path, from: &Path) -> PathBuf {
        let ups = from.components().count() - 1;
        let mut p = PathBuf::new();
        for _ in 0..ups {
            p.push("..");
        }
        p.join(to.strip_prefix("/").unwrap())
    }

    #[test]
    fn a_batch_puts_its_files_in_place_only_when_committed_and_a_dropped_one_leaves_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let g = dir.path();
        fs::write(g.join("old.txt"), b"old").unwrap();
        let mut batch = Batch::new();
        batch.put(&g.join("old.txt"), b"new").unwrap();
        batch.put(&g.join("sub/deeper/new.txt"), b"fresh").unwrap();
        assert_eq!(batch.len(), 2);
        assert_eq!(fs::read(g.join("old.txt")).unwrap(), b"old");
        assert!(!g.join("sub/deeper/new.txt").exists());
        batch.commit().unwrap();
        assert_eq!(fs::read(g.join("old.txt")).unwrap(), b"new");
        assert_eq!(fs::read(g.join("sub/deeper/new.txt")).unwrap(), b"fresh");
        let mut dropped = Batch::new();
        dropped.put(&g.join("never.txt"), b"x").unwrap();
        drop(dropped);
        let left: Vec<_> = fs::read_dir(g)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            !left
                .iter()
                .any(|n| n.starts_with(".tmp-") || n == "never.txt"),
            "{left:?}"
        );
    }

    #[test]
    fn sync_files_flushes_many_files_and_reports_a_missing_one() {
        let dir = tempfile::tempdir().unwrap();
        let paths: Vec<PathBuf> = (0..40).map(|i| dir.path().join(format!("f{i}"))).collect();
        for p in &paths {
            fs::write(p, b"x").unwrap();
        }
        let refs: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();
        sync_files(&refs).unwrap();
        sync_files(&[]).unwrap();
        let missing = dir.path().join("none");
        let mut with_missing = refs.clone();
        with_missing.push(&missing);
        assert!(sync_files(&with_missing).is_err());
    }
}
