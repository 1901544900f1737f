import ReconcileSimulator

/// The seed scenarios `demo` plays. Each script is kept, byte for byte, in `Playground/Scenarios/` (a test checks),
/// where `reconcile-playground run` runs it and CI runs it under every resolver.
extension DemoScenario {
  static let all: [DemoScenario] = [
    DemoScenario(
      file: "01-queued-edits.rcp", title: "1. Two quick queued edits (seed 004's pitfall)",
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
      script: """
        # 5. An app-1.0 device meets a record from app 2.0
        # App 2.0 added a color field. The 1.0 app shows the note but must not change it: its unsent edit, meeting the 2.0
        # version, halts the device rather than overwrite data it does not understand.
        schema 1.0 Note title:string
        schema 2.0 Note title:string color:string
        device add phone --schema 1.0
        device add mac --schema 2.0
        phone create Note/1 title=hello
        phone sync
        wait phone
        mac sync
        wait mac
        phone edit Note/1 title=hi
        mac edit Note/1 color=blue
        mac sync
        wait mac
        phone sync
        wait phone
        expect halted phone
        expect server Note/1 color = blue
        expect server Note/1 title = hello

        """,
      subject: RecordPath(recordType: "Note", recordName: "1"), keys: ["title", "color"],
      columns: [.server, .device("phone"), .device("mac"), .lost, .converged]),
    DemoScenario(
      file: "06-batching.rcp", title: "6. 1,000 records pushed at once",
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
