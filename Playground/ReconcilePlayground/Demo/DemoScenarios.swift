import ReconcileSimulator

/// The seed scenarios `demo` plays. Each script is kept, byte for byte, in `Playground/Scenarios/` (a test checks),
/// where `reconcile-playground run` runs it and CI runs it under every resolver.
extension DemoScenario {
  static let all: [DemoScenario] = [
    DemoScenario(
      file: "01-queued-edits.rcp", title: "1. Two quick queued edits (seed 004's pitfall)",
      explanation:
        "The phone's save of \"a\" landed but its answer was lost, so \"b\" went out on the old change tag. "
        + "server-lww keeps \"a\" and loses the later \"b\"; field-merge sees \"a\" on the server is the phone's own "
        + "unanswered save, not a concurrent change, and keeps \"b\"; local-clock, edit-count and hlc compare the "
        + "device's own edits and keep \"b\".",
      script: """
        # 1. Two quick queued edits (seed 004's pitfall)
        # The phone's first save lands but its answer is lost; its second edit then goes out on the old change tag.
        device add phone
        device add mac
        phone create Note/1 title=draft
        sync all
        advance 10s
        fault disconnect-after-save phone
        phone edit Note/1 title=a
        phone sync
        wait phone
        advance 10s
        phone edit Note/1 title=b
        phone online
        sync all
        expect converged
        expect server Note/1 title != draft

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title"],
      columns: [.server, .device("phone"), .device("mac"), .lost, .converged]),
    DemoScenario(
      file: "02-different-fields.rcp", title: "2. Concurrent edits to different fields of one record",
      explanation:
        "Whole-record resolvers keep one device's copy and drop the other's field; the field-level ones "
        + "(field-merge, hlc) keep both, because no field was changed twice.",
      script: """
        # 2. Concurrent edits to different fields of one record
        # Neither device has seen the other's change; each changed a field the other did not touch.
        device add phone
        device add mac
        phone create Note/1 title=draft body=empty
        sync all
        advance 10s
        phone edit Note/1 title=a
        advance 10s
        mac edit Note/1 body=b
        phone sync
        wait phone
        mac sync
        wait mac
        sync all
        expect converged

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title", "body"],
      columns: [.server, .device("phone"), .device("mac"), .lost, .converged]),
    DemoScenario(
      file: "03-same-field-slow-clock.rcp", title: "3. Concurrent edits to one field, the mac's clock 5 minutes slow",
      explanation:
        "One value must lose. The mac's \"b\" is the later edit in true time, yet every resolver keeps \"a\": the "
        + "phone saved first, the mac's clock says it edited earlier, the edit counts tie, and the mac had not seen "
        + "\"a\" (the hlc stamps). No resolver sees true time; without the skew, local-clock would keep \"b\".",
      script: """
        # 3. Concurrent edits to one field, one device's clock 5 minutes slow
        # The mac edits last in true time, but its clock says it edited four minutes before the phone.
        device add phone
        device add mac --clock-offset -5m
        phone create Note/1 title=draft
        sync all
        advance 1m
        phone edit Note/1 title=a
        advance 1m
        mac edit Note/1 title=b
        phone sync
        wait phone
        mac sync
        wait mac
        sync all
        expect converged

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title"],
      columns: [.server, .device("phone"), .device("mac"), .lost, .converged]),
    DemoScenario(
      file: "04-delete-versus-edit.rcp", title: "4. Delete on one device, edit on another",
      explanation:
        "The delete policy decides, whatever the resolver: deleteWins drops the mac's edit, editWins brings the "
        + "note back with it and drops the phone's delete. Either way every device agrees.",
      script: """
        # 4. Delete on one device, edit on another
        # The phone deletes the note; the mac, not knowing, edits it. The delete policy decides.
        device add phone
        device add mac
        phone create Note/1 title=draft
        sync all
        advance 10s
        phone delete Note/1
        advance 10s
        mac edit Note/1 title=kept
        phone sync
        wait phone
        mac sync
        wait mac
        sync all
        expect converged

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title"], policies: [.deleteWins, .editWins],
      columns: [.server, .device("phone"), .device("mac"), .lost, .converged]),
    DemoScenario(
      file: "05-future-schema.rcp", title: "5. An app-1.0 device meets a record from app 2.0",
      explanation:
        "The 1.0 phone halts with a reason the app can show (update the app) instead of saving a note it would "
        + "strip of its color; the server keeps app 2.0's data intact.",
      script: """
        # 5. An app-1.0 device meets a record from app 2.0
        # App 2.0 added a color field. The 1.0 app must stop rather than overwrite data it does not understand.
        schema 1.0 Note title:string
        schema 2.0 Note title:string color:string
        device add phone --schema 1.0
        device add mac --schema 2.0
        mac create Note/1 title=hello color=blue
        mac sync
        wait mac
        phone sync
        wait phone
        expect halted phone
        expect phone records = 0
        expect server Note/1 color = blue

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title", "color"],
      columns: [.server, .device("phone"), .device("mac"), .lost, .converged]),
    DemoScenario(
      file: "06-batching.rcp", title: "6. 1,000 records pushed at once",
      explanation:
        "The phone sends 400 at a time (CloudKit's documented limit); this server allows 250, answers "
        + "limitExceeded once, and the phone halves its batches to 200 and finishes.",
      script: """
        # 6. 1,000 records pushed at once
        # This server takes at most 250 items per request; the phone starts at CloudKit's 400 and halves on limitExceeded.
        limit batch-items 250
        device add phone
        device add mac
        phone create Note/{1..1000} title=bulk
        phone sync
        wait phone
        mac sync
        wait mac
        expect phone errors:limitExceeded = 1
        expect server records = 1000
        expect mac records = 1000
        expect converged

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title"],
      columns: [
        .requests("phone"), .errors("phone", code: "limitExceeded"), .records(.server), .records(.device("mac")),
        .converged,
      ]),
    DemoScenario(
      file: "07-throttling.rcp", title: "7. Throttling with retry-after",
      explanation:
        "Every request in the first 30 seconds gets serviceUnavailable with a retry-after; the phone waits as told "
        + "(one refused request, not a storm of them) and then syncs.",
      script: """
        # 7. Throttling with retry-after
        # The container is throttled for 30 seconds (one passes as the fault line runs); the phone waits as told instead of
        # hammering the server.
        device add phone
        device add mac
        phone create Note/1 title=draft
        fault throttle 30s
        phone sync
        wait phone
        expect phone errors:serviceUnavailable >= 1
        expect phone waited >= 29
        expect server Note/1 title = draft
        mac sync
        wait mac
        expect converged

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title"],
      columns: [
        .requests("phone"), .errors("phone", code: "serviceUnavailable"), .waited("phone"), .server, .converged,
      ]),
    DemoScenario(
      file: "08-one-body-two-edits.rcp", title: "8. Two devices edit one note's body",
      explanation:
        "The phone fixes a typo in the first line while the mac appends a line. A resolver that picks a side keeps "
        + "one body and loses the other edit: server-lww, edit-count and field-merge keep the phone's, which reached "
        + "the server first; local-clock and hlc keep the mac's later one, typo and all. field-merge with "
        + "`--text body` merges the body three ways, as diff3 would, and keeps both edits.",
      script: """
        # 8. Two devices edit one note's body
        # The phone fixes a typo in the first line; the mac appends a line. Neither has seen the other's edit.
        device add phone
        device add mac
        phone create Note/1 body="Shopping lsit\\nmilk\\neggs\\n"
        sync all
        phone edit Note/1 body="Shopping list\\nmilk\\neggs\\n"
        mac edit Note/1 body+="bread\\n"
        phone sync
        wait phone
        mac sync
        wait mac
        sync all
        expect converged

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["body"],
      columns: [.server, .lost, .converged],
      resolvers: ResolverChoice.allCases.map(\.rawValue) + ["field-merge --text body"]),
  ]
}
