package com.sandboxgateway.console;

import static com.sandboxgateway.console.Html.esc;

import java.util.List;

import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.StoredRecord;

/** Search by user, session, container or code hash, and its results (records of every kind). */
final class SearchView {

    /** What a reviewer can search by: the form's value and its label. */
    enum By {
        USER("user", "User"), SESSION("session", "Session"), CONTAINER("container", "Container"), CODE_HASH("code_hash", "Code SHA-256");

        final String value;
        final String label;

        By(String value, String label) {
            this.value = value;
            this.label = label;
        }

        static By of(String value) {
            for (By by : values()) {
                if (by.value.equals(value)) {
                    return by;
                }
            }
            return USER;
        }
    }

    private SearchView() {
    }

    /** @param results {@code null} before a search; {@code problem} says what is wrong with the form */
    static String render(ConsoleUser user, By by, String term, List<StoredRecord> results, String problem) {
        StringBuilder options = new StringBuilder();
        for (By each : By.values()) {
            options.append("<option value=\"").append(each.value).append("\"").append(each == by ? " selected" : "").append(">")
                    .append(each.label).append("</option>");
        }
        StringBuilder body = new StringBuilder("""
                <form method="get" action="%s/search" class="filters" role="search">
                <div><label for="by">Search by</label><select id="by" name="by">%s</select></div>
                <div><label for="q">Value</label><input id="q" name="q" value="%s" required></div>
                <div><button type="submit">Search</button></div></form>
                """.formatted(Layout.BASE, options, esc(term)));
        if (problem != null) {
            body.append("<p role=\"alert\" class=\"problem\">").append(esc(problem)).append("</p>\n");
        } else if (results != null) {
            body.append(results.isEmpty() ? "<p role=\"status\">No records match.</p>\n" : table(results));
        }
        return Layout.page("Search", user, body.toString());
    }

    private static String table(List<StoredRecord> results) {
        StringBuilder rows = new StringBuilder();
        for (StoredRecord stored : results) {
            AuditRecord r = stored.record();
            rows.append("<tr><td><a href=\"").append(Layout.BASE).append("/records/").append(stored.seq()).append("\">#")
                    .append(stored.seq()).append("</a></td><td>").append(esc(r.kind().name())).append("</td><td>")
                    .append(r.createdAt()).append("</td><td>").append(esc(r.user())).append("</td><td>").append(esc(r.session()))
                    .append("</td><td>").append(esc(r.status())).append("</td><td>").append(QueueView.flags(r.flags()))
                    .append("</td></tr>\n");
        }
        return """
                <table><caption>%d matching records, in chain order</caption>
                <thead><tr><th scope="col">Record</th><th scope="col">Kind</th><th scope="col">When (UTC)</th>\
                <th scope="col">User</th><th scope="col">Session</th><th scope="col">Status</th><th scope="col">Flags</th></tr></thead>
                <tbody>
                %s</tbody></table>
                """.formatted(results.size(), rows);
    }
}
