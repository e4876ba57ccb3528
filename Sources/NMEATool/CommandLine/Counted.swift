/// `1 trip`, `2 trips`, `1 fix`, `3 fixes`, `1 client`: a count with its noun, singular or plural as English has
/// it, for every message that counts something. `plural` when adding `s` (or `es` after `x`, `s`, `sh`, `ch`) is
/// wrong.
func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    if count == 1 { return "1 \(noun)" }
    if let plural { return "\(count) \(plural)" }
    let sibilant = ["x", "s", "sh", "ch"].contains { noun.hasSuffix($0) }
    return "\(count) \(noun)\(sibilant ? "es" : "s")"
}
