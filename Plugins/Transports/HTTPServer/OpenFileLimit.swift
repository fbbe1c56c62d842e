import Glibc

/// The process's limit on open descriptors (RLIMIT_NOFILE), which bounds how many connections a
/// server can hold: systemd and most shells start processes with a soft limit of 1024, while the
/// hard limit is usually far higher.
public enum OpenFileLimit {
    /// Raises the soft limit towards `wanted` (never past the hard limit, never lowering it) and
    /// returns the soft limit now in force.
    @discardableResult
    public static func raise(toAtLeast wanted: Int) -> Int {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return wanted }
        let target = min(rlim_t(max(wanted, 0)), limits.rlim_max)
        if target > limits.rlim_cur {
            var raised = limits
            raised.rlim_cur = target
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }
}
