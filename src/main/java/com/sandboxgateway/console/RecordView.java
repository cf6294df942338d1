package com.sandboxgateway.console;

import static com.sandboxgateway.console.Html.esc;

import java.util.List;

import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail.LinkStatus;
import com.sandboxgateway.audit.AuditTrail.TreeStatus;
import com.sandboxgateway.audit.StoredRecord;
import com.sandboxgateway.console.CodeOutputs.Output;
import com.sandboxgateway.console.Reviews.Review;

import tools.jackson.databind.JsonNode;

/**
 * One audited record: its facts, flags, highlighted code (or a shell call's commands), outputs, chain link, Merkle tree status, session
 * timeline and reviews.
 */
final class RecordView {

    /** Everything the page shows, read by the handler. */
    record Model(StoredRecord stored, LinkStatus link, TreeStatus tree, List<Review> reviews, List<StoredRecord> timeline,
                 List<Output> outputs, ContainerFiles.Listing files, JsonNode details, String notice) {
    }

    private RecordView() {
    }

    static String render(ConsoleUser user, Model model) {
        AuditRecord record = model.stored().record();
        String title = noun(record.kind()) + " #" + model.stored().seq();
        StringBuilder body = new StringBuilder();
        if (model.notice() != null) {
            body.append("<p role=\"status\" class=\"notice\">").append(esc(model.notice())).append("</p>\n");
        }
        body.append(facts(model.stored()));
        body.append(flagSection(record, model.details()));
        if (record.code() != null) {
            body.append(code(record));
        }
        body.append(outputs(model.outputs(), record.outputsTruncated()));
        if (model.files() != null) {
            body.append(files(model.stored(), model.files()));
        }
        body.append(chain(model.stored(), model.link()));
        body.append(tree(model.tree()));
        body.append(timeline(model.stored(), model.timeline()));
        body.append(reviews(user, model.stored(), model.reviews()));
        return Layout.page(title, user, body.toString());
    }

    /** What the record is of, as its page's title and the queue name it. */
    static String noun(AuditRecord.Kind kind) {
        return switch (kind) {
            case CODE_EXECUTION -> "Code block";
            case SHELL_EXECUTION -> "Shell call";
            case UNSEEN_RESPONSE -> "Unseen response";
            default -> "Record";
        };
    }

    /** A code block's Python, highlighted, or a shell call's commands, one per line, as they ran. */
    private static String code(AuditRecord record) {
        boolean shell = record.kind() == AuditRecord.Kind.SHELL_EXECUTION;
        return "<section aria-labelledby=\"code-h\"><h2 id=\"code-h\">" + (shell ? "Commands" : "Code") + "</h2>\n"
                + "<pre class=\"code\" tabindex=\"0\" aria-label=\"" + (shell ? "Executed shell commands" : "Executed Python code")
                + "\"><code>" + (shell ? esc(record.code()) : PythonHighlighter.highlight(record.code())) + "</code></pre></section>\n";
    }

    private static String facts(StoredRecord stored) {
        AuditRecord r = stored.record();
        return "<dl class=\"facts\">" + fact("Kind", r.kind().name()) + fact("Executed (UTC)", r.createdAt().toString())
                + fact("User", r.user()) + fact("Team", r.team()) + fact("Session", r.session()) + fact("Response", r.responseId())
                + fact("Container", r.containerId()) + fact("Model", r.model()) + fact("Status", r.status())
                + fact("Call", r.callId()) + fact("Code SHA-256", r.codeSha256()) + fact("Gateway request", r.requestId())
                + fact("OpenAI request", r.upstreamRequestId()) + "</dl>\n";
    }

    private static String fact(String name, String value) {
        return value == null ? "" : "<dt>" + esc(name) + "</dt><dd>" + esc(value) + "</dd>";
    }

    private static String flagSection(AuditRecord record, JsonNode details) {
        if (record.flags().isEmpty()) {
            return "";
        }
        StringBuilder items = new StringBuilder();
        for (JsonNode flag : details.path("flags")) {
            if (flag.path("detail").asString("").isEmpty()) {
                continue;
            }
            items.append("<li><strong class=\"flag\">").append(esc(flag.path("flag").asString(""))).append("</strong> ")
                    .append(esc(flag.path("detail").asString(""))).append("</li>");
        }
        return "<section aria-labelledby=\"flags-h\"><h2 id=\"flags-h\">Review flags</h2>" + QueueView.flags(record.flags())
                + (items.isEmpty() ? "" : "<ul class=\"flag-details\">" + items + "</ul>") + "</section>\n";
    }

    private static String outputs(List<Output> outputs, boolean truncated) {
        if (outputs.isEmpty()) {
            return "";
        }
        StringBuilder html = new StringBuilder("<section aria-labelledby=\"out-h\"><h2 id=\"out-h\">Outputs</h2>\n");
        if (truncated) {
            html.append("<p class=\"notice\">The outputs were cut to the audit's size cap; this is what was kept.</p>\n");
        }
        int image = 0;
        int command = 0;
        for (Output output : outputs) {
            switch (output) {
                case Output.Logs logs -> html.append("<h3>Logs</h3><pre class=\"logs\" tabindex=\"0\">").append(esc(logs.text())).append("</pre>\n");
                case Output.InlineImage inline -> html.append("<figure><img src=\"").append(esc(inline.dataUrl()))
                        .append("\" alt=\"Image output ").append(++image).append(" of this block\"><figcaption>Image ")
                        .append(image).append("</figcaption></figure>\n");
                case Output.NamedImage named -> html.append("<p>Image ").append(++image).append(": <code>").append(esc(named.reference()))
                        .append("</code> (not fetched by the console)</p>\n");
                case Output.Command ran -> html.append(commandOutput(++command, ran));
                case Output.Kept kept -> html.append("<pre class=\"logs\" tabindex=\"0\">").append(esc(kept.text())).append("</pre>\n");
            }
        }
        return html.append("</section>\n").toString();
    }

    /** The stdout, stderr and outcome of a shell call's {@code number}th command. */
    private static String commandOutput(int number, Output.Command ran) {
        StringBuilder html = new StringBuilder("<h3>Command ").append(number).append(": ").append(esc(ran.outcome())).append("</h3>\n");
        if (!ran.stdout().isEmpty()) {
            html.append("<pre class=\"logs stdout\" tabindex=\"0\" aria-label=\"Standard output of command ").append(number)
                    .append("\">").append(esc(ran.stdout())).append("</pre>\n");
        }
        if (!ran.stderr().isEmpty()) {
            html.append("<pre class=\"logs stderr\" tabindex=\"0\" aria-label=\"Standard error of command ").append(number)
                    .append("\">").append(esc(ran.stderr())).append("</pre>\n");
        }
        return html.toString();
    }

    private static String files(StoredRecord stored, ContainerFiles.Listing listing) {
        StringBuilder html = new StringBuilder("<section aria-labelledby=\"files-h\"><h2 id=\"files-h\">Files in the container</h2>\n");
        if (listing.unavailable() != null) {
            html.append("<p>The gateway cannot fetch this container's files: ").append(esc(listing.unavailable())).append(".</p>\n");
            var named = ContainerFiles.pathsNamedIn(stored.record().code());
            if (!named.isEmpty()) {
                html.append("<p>Files this block's code names:</p><ul class=\"named-files\">");
                named.forEach(path -> html.append("<li><code>").append(esc(path)).append("</code></li>"));
                html.append("</ul>\n");
            }
            return html.append("</section>\n").toString();
        }
        if (listing.files().isEmpty()) {
            return html.append("<p>The container holds no files.</p></section>\n").toString();
        }
        html.append("<p>As the container holds them now, from every block of its session.</p>\n<ul class=\"files\">");
        for (ContainerFiles.ContainerFile file : listing.files()) {
            String caption = "<code>" + esc(file.path()) + "</code> (" + file.bytes() + " bytes, " + esc(file.source()) + ")";
            html.append("<li>");
            if (file.looksLikeImage()) {
                html.append("<figure><img src=\"").append(Layout.BASE).append("/records/").append(stored.seq()).append("/files/")
                        .append(esc(file.id())).append("\" alt=\"Image ").append(esc(file.path())).append(" from the container\">")
                        .append("<figcaption>").append(caption).append("</figcaption></figure>");
            } else {
                html.append(caption);
            }
            html.append("</li>");
        }
        return html.append("</ul></section>\n").toString();
    }

    private static String chain(StoredRecord stored, LinkStatus link) {
        String verdict = link.holds()
                ? (link.linksToPrevious() == null
                        ? "Its hash matches its content; the record before it was removed by retention, so only a whole-chain check can confirm the link."
                        : "Intact: its hash matches its content and links to the record before it.")
                : !link.contentMatches() ? "Broken: the stored hash does not match the record's content."
                : "Broken: the record before it does not end in the hash this record names.";
        return """
                <section aria-labelledby="chain-h"><h2 id="chain-h">Chain</h2>
                <p class="%s">%s</p><dl class="facts"><dt>Sequence</dt><dd>%d</dd><dt>Hash</dt><dd><code>%s</code></dd>\
                <dt>Previous hash</dt><dd><code>%s</code></dd></dl><p><a href="%s/verify">Check the whole chain</a></p></section>
                """.formatted(link.holds() ? "ok" : "problem", esc(verdict), stored.seq(), esc(stored.hash()),
                esc(stored.prevHash()), Layout.BASE);
    }

    private static String tree(TreeStatus tree) {
        String verdict = switch (tree.state()) {
            case VERIFIED -> "Proven: its inclusion proof verifies against the latest signed checkpoint (tree size " + tree.treeSize() + ").";
            case NOT_YET_COVERED -> "Not in a signed checkpoint yet: the latest covers a tree of " + tree.treeSize()
                    + " records; the next one (every gateway.audit.checkpoint-interval) includes this record.";
            case NO_CHECKPOINT -> "No checkpoint yet: none has been signed, so nothing outside the database pins this record.";
            case CHECKPOINTS_OFF -> "No checkpoints: gateway.audit.signing-key is not set, so nothing outside the database pins this record.";
            case FAILED -> "Does not verify: " + tree.problem() + ".";
        };
        String style = switch (tree.state()) {
            case VERIFIED -> " class=\"ok\"";
            case FAILED -> " class=\"problem\"";
            default -> "";
        };
        return """
                <section aria-labelledby="tree-h"><h2 id="tree-h">Merkle tree</h2>
                <p%s>%s</p><dl class="facts"><dt>Leaf hash (base64)</dt><dd><code>%s</code></dd></dl></section>
                """.formatted(style, esc(verdict), esc(tree.leafHash()));
    }

    private static String timeline(StoredRecord current, List<StoredRecord> timeline) {
        if (current.record().session() == null) {
            return "";
        }
        StringBuilder items = new StringBuilder();
        for (StoredRecord stored : timeline) {
            AuditRecord r = stored.record();
            boolean here = stored.seq() == current.seq();
            String label = r.kind().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ') + " #" + stored.seq() + ", "
                    + r.createdAt() + (r.status() == null ? "" : ", " + r.status());
            items.append("<li").append(here ? " class=\"here\"" : "").append(">")
                    .append(here ? "<span aria-current=\"true\">" + esc(label) + " (this record)</span>"
                            : "<a href=\"" + Layout.BASE + "/records/" + stored.seq() + "\">" + esc(label) + "</a>")
                    .append(r.flags().isEmpty() ? "" : " " + QueueView.flags(r.flags())).append("</li>\n");
        }
        return "<section aria-labelledby=\"time-h\"><h2 id=\"time-h\">Session timeline</h2>\n<p>Records of session <code>"
                + esc(current.record().session()) + "</code>, earlier blocks first.</p><ol class=\"timeline\">\n" + items + "</ol></section>\n";
    }

    private static String reviews(ConsoleUser user, StoredRecord stored, List<Review> reviews) {
        StringBuilder html = new StringBuilder("<section aria-labelledby=\"rev-h\"><h2 id=\"rev-h\">Reviews</h2>\n");
        if (reviews.isEmpty()) {
            html.append("<p>Not reviewed yet.</p>\n");
        } else {
            html.append("<ul class=\"reviews\">");
            for (Review review : reviews) {
                html.append("<li><strong>").append(esc(review.verdict().replace('_', ' '))).append("</strong> by ")
                        .append(esc(review.reviewer())).append(" at <time>").append(review.at()).append("</time> (audit record #")
                        .append(review.seq()).append(")").append(review.note().isEmpty() ? "" : ": " + esc(review.note())).append("</li>");
            }
            html.append("</ul>\n");
        }
        StringBuilder verdicts = new StringBuilder();
        for (String verdict : Reviews.VERDICTS) {
            verdicts.append("<div><input type=\"radio\" name=\"verdict\" id=\"verdict-").append(verdict).append("\" value=\"")
                    .append(verdict).append("\"").append(verdict.equals(Reviews.VERDICTS.getFirst()) ? " checked" : "")
                    .append("><label for=\"verdict-").append(verdict).append("\">").append(verdict.replace('_', ' ')).append("</label></div>");
        }
        String csrf = user.csrfToken() == null ? "" : "<input type=\"hidden\" name=\"" + ConsoleAccess.CSRF_FIELD + "\" value=\""
                + esc(user.csrfToken()) + "\">";
        html.append("""
                <form method="post" action="%s/records/%d/review" class="review">%s
                <fieldset><legend>Verdict</legend>%s</fieldset>
                <div><label for="note">Note (recorded in the audit trail)</label>
                <textarea id="note" name="note" rows="3" maxlength="%d"></textarea></div>
                <div><button type="submit" id="mark-reviewed">Mark reviewed</button></div></form></section>
                """.formatted(Layout.BASE, stored.seq(), csrf, verdicts, Reviews.MAX_NOTE));
        return html.toString();
    }
}
