import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.StringJoiner;

/**
 * What the embedded H2 costs for the rows a code-running response leaves besides its audit record: the turn charge,
 * two spend charges and five owner rows, on the gateway's own schema (its migrations, in order) and URL settings,
 * {@code k} responses per transaction (a group commit of k).
 *
 * <p>Usage, from the repository's root, with H2 from the local Maven repository:
 * {@code taskset -c 0 java -cp ~/.m2/repository/com/h2database/h2/2.4.240/h2-2.4.240.jar bench/H2Rows.java
 * <k> <single|multi|journal> <transactions> [index,...]}. {@code single}: each row its own {@code INSERT ... ON CONFLICT
 * DO NOTHING}, as the gateway writes them on H2 (the owner rows of a response in one); {@code multi}: one insert per
 * table for the whole transaction, each telling its new rows through {@code SELECT ... FROM FINAL TABLE (INSERT ...)};
 * {@code journal}: what one append per code-running response would cost instead (session 16's proposal for the
 * embedded store): a single row of {@value #JOURNAL_BYTES} bytes, keyed by a sequence number, holding what the rows and
 * the audit record hold. The
 * named indexes are dropped first, to see what they cost. It prints microseconds per response after 2,000 transactions
 * of warm-up. {@code -Dsettings=';NAME=value...'} appends more URL settings to the gateway's (an H2 setting tried on
 * these rows alone).
 */
public final class H2Rows {

    private static final String TURN = "turn_charge (charge_id, user_name, team, session_id, charge_day, reserved, turns, created_at, settled_at)";
    private static final String SPEND = "spend_charge (charge_id, team, user_name, charge_day, usd_micros, created_at)";
    private static final String OWNER = "owned_object (id, kind, owner_user, owner_team, parent_id, created_at, expires_at)";
    private static final int WARM_UP = 2_000;
    /** A code-running response's audit record (its code and outputs) and rows, serialized: about its answer's size. */
    private static final int JOURNAL_BYTES = 3_000;

    public static void main(String[] args) throws Exception {
        int k = Integer.parseInt(args[0]);
        String mode = args[1];
        int transactions = Integer.parseInt(args[2]);
        Path dir = Files.createTempDirectory("h2rows");
        String settings = "MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;CACHE_SIZE=2048;QUERY_CACHE_SIZE=64;AUTO_COMPACT_FILL_RATE=70;WRITE_DELAY=100"
                + System.getProperty("settings", "");
        try (Connection connection = DriverManager.getConnection("jdbc:h2:file:" + dir + "/db;" + settings)) {
            migrate(connection, args.length > 3 ? args[3].split(",") : new String[0]);
            byte[] payload = new byte[JOURNAL_BYTES];
            new Random(1).nextBytes(payload);
            connection.setAutoCommit(false);
            long response = 0;
            long start = 0;
            for (int t = 0; t < WARM_UP + transactions; t++) {
                if (t == WARM_UP) {
                    start = System.nanoTime();
                }
                if (mode.equals("journal")) {
                    for (int r = 0; r < k; r++, response++) {
                        long seq = response;
                        insert(connection, "journal (seq, payload)", null, 1, 2, (p, i, row) -> {
                            p.setLong(i, seq);
                            p.setBytes(i + 1, payload);
                        });
                    }
                } else if (mode.equals("multi")) {
                    long first = response;
                    insert(connection, TURN, "charge_id", k, 9, (p, i, r) -> turn(p, i, first + r));
                    insert(connection, SPEND, "charge_id", 2 * k, 6, (p, i, r) -> spend(p, i, 2 * first + r));
                    insert(connection, OWNER, "id", 5 * k, 7, (p, i, r) -> owner(p, i, 5 * first + r));
                    response += k;
                } else {
                    for (int r = 0; r < k; r++, response++) {
                        long id = response;
                        insert(connection, TURN, null, 1, 9, (p, i, row) -> turn(p, i, id));
                        insert(connection, SPEND, null, 1, 6, (p, i, row) -> spend(p, i, 2 * id));
                        insert(connection, SPEND, null, 1, 6, (p, i, row) -> spend(p, i, 2 * id + 1));
                        insert(connection, OWNER, null, 5, 7, (p, i, row) -> owner(p, i, 5 * id + row));
                    }
                }
                connection.commit();
            }
            double micros = (System.nanoTime() - start) / 1e3 / ((double) transactions * k);
            System.out.printf(Locale.ROOT, "k=%d %s: %.1f us per response%n", k, mode, micros);
        }
    }

    private static void migrate(Connection connection, String[] dropped) throws Exception {
        List<Path> files = new ArrayList<>();
        try (var listing = Files.list(Path.of("src/main/resources/db/migration"))) {
            listing.forEach(files::add);
        }
        files.sort(Comparator.comparingInt(f -> Integer.parseInt(f.getFileName().toString().replaceAll("^V(\\d+)__.*", "$1"))));
        try (Statement statement = connection.createStatement()) {
            for (Path file : files) {
                for (String sql : Files.readString(file).replaceAll("(?m)--.*$", "").split(";")) {
                    if (!sql.isBlank()) {
                        statement.execute(sql);
                    }
                }
            }
            for (String index : dropped) {
                statement.execute("DROP INDEX " + index);
            }
            statement.execute("CREATE TABLE journal (seq BIGINT NOT NULL PRIMARY KEY, payload VARBINARY(65536) NOT NULL)");
        }
    }

    /** Sets the values of row {@code row} from parameter {@code index} on. */
    @FunctionalInterface
    private interface Row {
        void set(PreparedStatement statement, int index, int row) throws SQLException;
    }

    /** One insert of {@code rows} rows; with a {@code key}, its new rows read back from {@code FINAL TABLE}. */
    private static void insert(Connection connection, String into, String key, int rows, int columns, Row values) throws SQLException {
        StringJoiner list = new StringJoiner(", ");
        String marks = "(" + String.join(", ", Collections.nCopies(columns, "?")) + ")";
        for (int r = 0; r < rows; r++) {
            list.add(marks);
        }
        String insert = "INSERT INTO " + into + " VALUES " + list;
        String sql = key == null ? insert + " ON CONFLICT DO NOTHING" : "SELECT " + key + " FROM FINAL TABLE (" + insert + ")";
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int r = 0; r < rows; r++) {
                values.set(statement, 1 + r * columns, r);
            }
            if (key == null) {
                statement.executeUpdate();
            } else {
                try (ResultSet inserted = statement.executeQuery()) {
                    while (inserted.next()) {
                        inserted.getString(1);
                    }
                }
            }
        }
    }

    /** Ids as the fake upstream makes them: a prefix, the time in hex, a counter. */
    private static String id(String prefix, long n) {
        return String.format(Locale.ROOT, "%s_%013x%019d", prefix, System.currentTimeMillis(), n);
    }

    private static void turn(PreparedStatement p, int i, long n) throws SQLException {
        p.setString(i, id("resp", n));
        p.setString(i + 1, "alice");
        p.setString(i + 2, "team-a");
        p.setString(i + 3, "session-" + n % 50);
        p.setObject(i + 4, LocalDate.now());
        p.setInt(i + 5, 1);
        p.setInt(i + 6, 1);
        p.setObject(i + 7, OffsetDateTime.now());
        p.setObject(i + 8, OffsetDateTime.now());
    }

    private static void spend(PreparedStatement p, int i, long n) throws SQLException {
        p.setString(i, id("response:resp", n));
        p.setString(i + 1, "team-a");
        p.setString(i + 2, "alice");
        p.setObject(i + 3, LocalDate.now());
        p.setLong(i + 4, 1_234);
        p.setObject(i + 5, OffsetDateTime.now());
    }

    private static void owner(PreparedStatement p, int i, long n) throws SQLException {
        p.setString(i, id("obj", n));
        p.setString(i + 1, "response");
        p.setString(i + 2, "alice");
        p.setString(i + 3, "team-a");
        p.setString(i + 4, null);
        p.setObject(i + 5, OffsetDateTime.now());
        p.setObject(i + 6, null);
    }
}
