//! The walk over every row of every table of the database (and the packed logs) that finds a
//! deleted player nowhere but in the placeholder's own rows.

use diesel::{Connection, RunQueryDsl};
use support::database::texts_at;

use super::NAME;
use crate::support;
use support::TestServer;

/// Every base table of the database, and each one's columns with their types.
fn tables(s: &TestServer) -> Vec<(String, Vec<(String, String)>)> {
    let url = &s.database_url;
    let pg = url.starts_with("postgres");
    let names = if pg {
        texts_at(
            url,
            "SELECT table_name::text AS t FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
        )
    } else {
        texts_at(
            url,
            "SELECT name AS t FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' ORDER BY 1",
        )
    };
    names
        .into_iter()
        .map(|table| {
            let (cols, types) = if pg {
                let q = |what: &str| {
                    format!(
                        "SELECT {what}::text AS t FROM information_schema.columns \
                         WHERE table_schema = current_schema() AND table_name = '{table}' \
                         ORDER BY ordinal_position"
                    )
                };
                (
                    texts_at(url, &q("column_name")),
                    texts_at(url, &q("data_type")),
                )
            } else {
                let q = |what: &str| {
                    format!("SELECT {what} AS t FROM pragma_table_info('{table}') ORDER BY cid")
                };
                (texts_at(url, &q("name")), texts_at(url, &q("type")))
            };
            (table, cols.into_iter().zip(types).collect())
        })
        .collect()
}

#[derive(diesel::QueryableByName)]
struct Bytes {
    #[diesel(sql_type = diesel::sql_types::Binary)]
    b: Vec<u8>,
}

/// The packed logs, unpacked (zstd, as the server packs them).
pub(super) fn archives(s: &TestServer) -> Vec<String> {
    let sql = "SELECT events AS b FROM game_archives";
    let rows: Vec<Bytes> = if s.database_url.starts_with("postgres") {
        let mut c = diesel::PgConnection::establish(&s.database_url).expect("connect");
        diesel::sql_query(sql).load(&mut c).expect("sql")
    } else {
        let mut c = support::database::sqlite_at(&s.database_url);
        diesel::sql_query(sql).load(&mut c).expect("sql")
    };
    rows.into_iter()
        .map(|r| String::from_utf8(zstd::decode_all(r.b.as_slice()).expect("zstd")).expect("utf-8"))
        .collect()
}

/// The columns that hold a user's id, and where the placeholder's id may stay.
const USER_COLUMNS: [&str; 4] = ["user_id", "created_by", "to_act_user", "id"];
const PLACEHOLDER_ROWS: [(&str, &str); 4] = [
    ("users", "id"),
    ("game_seats", "user_id"),
    ("game_results", "user_id"),
    ("games", "created_by"),
];

/// Walk every row of every table: no text holds the name (nor, so, the address, which starts
/// with it), and the id is only in the placeholder's own rows.
pub(super) fn assert_erased(s: &TestServer, id: i64, address: &str) {
    let mut walked = 0;
    for (table, columns) in tables(s) {
        for (column, kind) in &columns {
            let kind = kind.to_ascii_lowercase();
            if kind.contains("blob") || kind.contains("bytea") {
                continue;
            }
            let values = texts_at(
                &s.database_url,
                &format!("SELECT COALESCE(CAST(\"{column}\" AS TEXT), '') AS t FROM \"{table}\""),
            );
            walked += values.len();
            for v in values {
                let v = v.to_ascii_lowercase();
                assert!(
                    !v.contains(NAME) && !v.contains(address),
                    "{table}.{column} still holds the deleted player: {v}"
                );
            }
            let holds_ids =
                USER_COLUMNS.contains(&column.as_str()) && (column != "id" || table == "users");
            if holds_ids && !PLACEHOLDER_ROWS.contains(&(table.as_str(), column.as_str())) {
                let n = s.count(&format!(
                    "SELECT COUNT(*) AS n FROM \"{table}\" WHERE \"{column}\" = {id}"
                ));
                assert_eq!(n, 0, "{table}.{column} still holds the deleted player's id");
            }
        }
    }
    assert!(walked > 500, "the walk read {walked} values only");
    let packed = archives(s);
    assert!(packed.len() >= 2, "the finished games were packed");
    for log in packed {
        assert!(
            !log.to_ascii_lowercase().contains(NAME),
            "a packed log: {log}"
        );
    }
}
