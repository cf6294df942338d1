package com.sandboxgateway.console;

import static com.sandboxgateway.console.Html.esc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.console.Reviews.Review;

/** The review queue page: its filter form and the table of flagged code blocks and shell calls. */
final class QueueView {

    private QueueView() {
    }

    /**
     * @param form the filter values as the reviewer typed them, by parameter name
     * @param page the entries, or {@code null} when the form did not parse
     * @param problem what is wrong with the form, or {@code null}
     */
    static String render(ConsoleUser user, Map<String, String> form, ReviewQueue.Page page, String problem) {
        StringBuilder body = new StringBuilder(filterForm(form));
        if (problem != null) {
            body.append("<p role=\"alert\" class=\"problem\">").append(esc(problem)).append("</p>\n");
        } else if (page.entries().isEmpty()) {
            body.append("<p role=\"status\">No flagged code blocks or shell calls match.</p>\n");
        } else {
            body.append(table(page.entries()));
        }
        if (page != null && page.next() != null) {
            Map<String, String> next = new LinkedHashMap<>(form);
            next.put("after", Long.toString(page.next()));
            body.append("<p><a href=\"").append(Layout.BASE).append(Html.query(next)).append("\">Next page</a></p>\n");
        }
        return Layout.page("Review queue", user, body.toString());
    }

    private static String filterForm(Map<String, String> form) {
        String state = form.getOrDefault("state", "open");
        String kind = form.getOrDefault("kind", "all");
        return """
                <form method="get" action="%s" class="filters" aria-label="Filter the queue">
                <div><label for="flag">Flag</label><input id="flag" name="flag" value="%s" placeholder="env_access"></div>
                <div><label for="kind">Kind</label><select id="kind" name="kind">%s</select></div>
                <div><label for="team">Team</label><input id="team" name="team" value="%s"></div>
                <div><label for="user">User</label><input id="user" name="user" value="%s"></div>
                <div><label for="since">From (UTC)</label><input id="since" name="since" value="%s" placeholder="2026-12-01T09:00:00Z"></div>
                <div><label for="until">Until (UTC)</label><input id="until" name="until" value="%s" placeholder="2026-12-01T18:00:00Z"></div>
                <div><label for="state">Show</label><select id="state" name="state">%s</select></div>
                <div><button type="submit">Apply filters</button></div>
                </form>
                """.formatted(Layout.BASE, esc(form.get("flag")),
                option("all", "Code blocks and shell calls", kind) + option("code", "Code blocks", kind) + option("shell", "Shell calls", kind),
                esc(form.get("team")), esc(form.get("user")),
                esc(form.get("since")), esc(form.get("until")),
                option("open", "Not reviewed yet", state) + option("reviewed", "Reviewed", state) + option("all", "All", state));
    }

    private static String option(String value, String label, String selected) {
        return "<option value=\"" + value + "\"" + (value.equals(selected) ? " selected" : "") + ">" + label + "</option>";
    }

    private static String table(List<ReviewQueue.Entry> entries) {
        StringBuilder rows = new StringBuilder();
        for (ReviewQueue.Entry entry : entries) {
            AuditRecord record = entry.stored().record();
            rows.append("<tr data-call-id=\"").append(esc(record.callId())).append("\">")
                    .append("<td><a href=\"").append(Layout.BASE).append("/records/").append(entry.stored().seq())
                    .append("\">#").append(entry.stored().seq()).append("</a></td>")
                    .append("<td>").append(RecordView.noun(record.kind())).append("</td>")
                    .append("<td><time datetime=\"").append(record.createdAt()).append("\">").append(record.createdAt()).append("</time></td>")
                    .append("<td>").append(esc(record.user())).append("</td><td>").append(esc(record.team())).append("</td>")
                    .append("<td>").append(flags(record.flags())).append("</td>")
                    .append("<td>").append(esc(record.status())).append("</td>")
                    .append("<td>").append(reviewState(entry.reviews())).append("</td></tr>\n");
        }
        return """
                <table><caption>Flagged code blocks and shell calls, oldest first</caption>
                <thead><tr><th scope="col">Record</th><th scope="col">Kind</th><th scope="col">Executed (UTC)</th><th scope="col">User</th>\
                <th scope="col">Team</th><th scope="col">Flags</th><th scope="col">Status</th><th scope="col">Review</th></tr></thead>
                <tbody>
                %s</tbody></table>
                """.formatted(rows);
    }

    static String flags(List<String> flags) {
        StringBuilder html = new StringBuilder("<ul class=\"flags\">");
        flags.forEach(flag -> html.append("<li class=\"flag\">").append(esc(flag)).append("</li>"));
        return html.append("</ul>").toString();
    }

    static String reviewState(List<Review> reviews) {
        if (reviews.isEmpty()) {
            return "<span class=\"open\">Not reviewed</span>";
        }
        Review last = reviews.getLast();
        return "<span class=\"verdict\">" + esc(last.verdict().replace('_', ' ')) + "</span> by " + esc(last.reviewer());
    }
}
