"""The database-cost benchmark's readings of the server's statement log and of pg_waldump."""

from __future__ import annotations

from tests.benchmarks.bench_database_cost import WALDUMP, transactions

LOG = """\
2026-12-02 04:30:00.101 UTC [101] web 3/7 0 LOG:  connection authorized: user=web database=db
2026-12-02 04:30:00.102 UTC [101] web 3/8 0 LOG:  execute <unnamed>: SELECT "authtoken_token"."key"
\tFROM "authtoken_token" WHERE "authtoken_token"."key" = $1
2026-12-02 04:30:00.103 UTC [101] web 3/8 0 DETAIL:  parameters: $1 = '...'
2026-12-02 04:30:00.104 UTC [101] web 3/9 0 LOG:  statement: BEGIN
2026-12-02 04:30:00.105 UTC [101] web 3/9 0 LOG:  execute _pg3_0: SELECT "games_table"."id"
\tFROM "games_table" WHERE "games_table"."id" = $1 FOR NO KEY UPDATE
2026-12-02 04:30:00.106 UTC [101] web 3/9 812 LOG:  execute <unnamed>: WITH h0 AS (UPDATE games_table SET version = $1)
\tINSERT INTO "games_event" SELECT 1
2026-12-02 04:30:00.107 UTC [101] web 3/9 812 LOG:  statement: COMMIT
2026-12-02 04:30:00.108 UTC [202] worker 4/3 0 LOG:  execute <unnamed>: UPDATE "games_outboxmessage" SET "attempts" = $1
2026-12-02 04:30:00.109 UTC [202] worker 4/4 0 LOG:  execute <unnamed>: SELECT 1
2026-12-02 04:30:00.110 UTC [303] probe 5/2 0 LOG:  statement: SELECT "games_table"."version" FROM "games_table"
2026-12-02 04:30:00.111 UTC [44]   0 LOG:  checkpoint starting: immediate force wait
"""


def test_transactions_are_counted_by_role_and_told_apart_by_whether_they_wrote():
    counted = transactions(LOG)
    # web: the token's read alone, then one transaction that locked the table and appended.
    assert counted.all == {"web": 2, "worker": 2, "probe": 1}
    assert counted.wrote == {"web": 1, "worker": 1, "probe": 0}


def test_a_statement_that_got_no_xid_yet_still_counts_as_a_write_by_its_text():
    log = '2026-12-02 04:30:00.108 UTC [202] worker 4/3 0 LOG:  statement: DELETE FROM "games_outboxmessage"\n'
    assert transactions(log).wrote == {"worker": 1}


def test_the_waldump_statistics_are_read_by_record_type():
    dump = """\
Type                                           N      (%)          Record size      (%)             FPI size      (%)        Combined size      (%)
----                                           -      ---          -----------      ---             --------      ---        -------------      ---
Heap2/PRUNE                                    4 (  1.32)                  284 (  1.10)                23720 ( 98.36)                24004 ( 48.05)
Btree/INSERT_LEAF                            231 ( 76.24)                18321 ( 70.90)                    0 (  0.00)                18321 ( 36.68)
                                        --------                      --------                      --------                      --------
Total                                        303                         25840 [51.72%]                24116 [48.28%]                49956 [100%]
"""
    found = {m.group(1): tuple(int(v) for v in m.groups()[1:]) for m in WALDUMP.finditer(dump)}
    assert found == {"Heap2/PRUNE": (4, 284, 23720), "Btree/INSERT_LEAF": (231, 18321, 0)}
