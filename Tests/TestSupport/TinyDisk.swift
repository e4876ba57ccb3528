import Glibc

/// A 64 KiB tmpfs, mounted for a test that needs a disk to fill, when the sandbox allows it (root).
///
///     let disk = try #require(TinyDisk.mount())
///     defer { TinyDisk.unmount(disk) }
public enum TinyDisk {
    /// Mounts one on a fresh temporary directory and returns its path; `nil` without the privilege.
    public static func mount() -> String? {
        let directory = TemporaryDirectory("tinydisk").path
        guard Glibc.mount("tmpfs", directory, "tmpfs", 0, "size=64k") == 0 else {
            rmdir(directory)
            return nil
        }
        return directory
    }

    /// Unmounts the one at `path` (even while files on it are open) and removes its directory.
    public static func unmount(_ path: String) {
        umount2(path, Int32(MNT_DETACH))
        rmdir(path)
    }

    /// `true` when this process may mount one.
    public static let canMount: Bool = {
        guard let path = mount() else { return false }
        unmount(path)
        return true
    }()
}
