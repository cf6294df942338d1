package com.sandboxgateway.audit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Inserts many rows in few statements ({@code INSERT ... VALUES (...), (...)}), which both databases take:
 * under the chain lock every round trip saved is one every waiting writer saves.
 */
final class MultiRowInsert {

    /** Parameters per statement: well below every driver's limit. */
    private static final int MAX_PARAMETERS = 2000;

    private MultiRowInsert() {
    }

    static void into(JdbcClient jdbc, String table, List<String> columns, List<List<Object>> rows) {
        int perStatement = Math.max(1, MAX_PARAMETERS / columns.size());
        for (int from = 0; from < rows.size(); from += perStatement) {
            int to = Math.min(from + perStatement, rows.size());
            StringBuilder sql = new StringBuilder("INSERT INTO ").append(table).append(" (").append(String.join(", ", columns))
                    .append(") VALUES ");
            Map<String, Object> params = new HashMap<>();
            for (int row = from; row < to; row++) {
                sql.append(row == from ? "(" : ", (");
                for (int column = 0; column < columns.size(); column++) {
                    String name = "p" + row + "_" + column;
                    sql.append(column == 0 ? ":" : ", :").append(name);
                    params.put(name, rows.get(row).get(column));
                }
                sql.append(')');
            }
            jdbc.sql(sql.toString()).params(params).update();
        }
    }
}
