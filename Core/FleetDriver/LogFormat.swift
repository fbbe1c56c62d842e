/// How log lines look: `text` for people and journald, `json` (one object a line) for machines.
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// `2026-01-01T00:00:00.000Z info update-succeeded: … key=value …`
    case text
    /// `{"time":"…","level":"info","event":"update-succeeded","message":"…",…}`
    case json
}
