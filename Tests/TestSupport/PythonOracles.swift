import Glibc
import System

/// Python packages from PyPI used as independent oracles (pyais…), installed once into `.build/venv-oracles`.
public enum PythonOracles {
    /// The `python` with pyais, made once per test process (a `static let` is initialized exactly once, so parallel
    /// tests never make the environment at the same time).
    public static let pyais: String? = python(with: "pyais")
    /// The `python` with pyubx2 (u-blox UBX), made once per test process.
    public static let pyubx2: String? = python(with: "pyubx2")
    /// The `python` with pyrtcm (RTCM 3), made once per test process.
    public static let pyrtcm: String? = python(with: "pyrtcm")

    /// The virtual environment's `python`, with `package` installed in it; `nil` (and the tests that need it are
    /// skipped, saying so) when the environment cannot be made or the package cannot be installed.
    static func python(with package: String) -> String? {
        let directory = Locations.packageRoot + "/.build/venv-oracles"
        let python = directory + "/bin/python"
        if (try? FileStatus(path: python)) == nil {
            guard (try? ChildProcess.run(["python3", "-m", "venv", directory]))?.status == 0 else { return nil }
        }
        if (try? ChildProcess.run([python, "-c", "import \(package)"]))?.status == 0 { return python }
        let install = try? ChildProcess.run(
            [python, "-m", "pip", "install", "--quiet", package], timeout: .seconds(300))
        return install?.status == 0 ? python : nil
    }
}
