package com.sandboxgateway.console;

import java.net.URI;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import com.sandboxgateway.api.GatewayException;
import com.sandboxgateway.audit.AuditQuery;
import com.sandboxgateway.audit.AuditRecord;
import com.sandboxgateway.audit.AuditTrail;
import com.sandboxgateway.audit.ChainVerification;
import com.sandboxgateway.audit.StoredRecord;

import tools.jackson.databind.json.JsonMapper;

/** The reviewer's pages: the queue, one record, the review action, search and the chain check. */
final class ReviewHandlers {

    private static final Pattern FLAG = Pattern.compile("[a-z][a-z0-9_]{0,63}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final int TIMELINE_AROUND = 10;
    private static final int SEARCH_LIMIT = 200;

    private final AuditTrail trail;
    private final Reviews reviews;
    private final ReviewQueue queue;
    private final ContainerFiles files;
    private final JsonMapper json;

    ReviewHandlers(AuditTrail trail, Reviews reviews, ReviewQueue queue, ContainerFiles files, JsonMapper json) {
        this.trail = trail;
        this.reviews = reviews;
        this.queue = queue;
        this.files = files;
        this.json = json;
    }

    ServerResponse queue(ServerRequest request) {
        Map<String, String> form = new LinkedHashMap<>();
        for (String name : List.of("flag", "kind", "team", "user", "since", "until", "state")) {
            request.param(name).map(String::strip).filter(value -> !value.isEmpty()).ifPresent(value -> form.put(name, value));
        }
        ConsoleUser user = ConsoleUser.of(request);
        ReviewQueue.Filter filter;
        try {
            filter = new ReviewQueue.Filter(flag(form.get("flag")), kind(form.get("kind")), form.get("team"), form.get("user"),
                    instant(form.get("since"), "From"), instant(form.get("until"), "Until"), state(form.get("state")),
                    request.param("after").map(ReviewHandlers::cursor).orElse(null));
        } catch (IllegalArgumentException e) {
            return html(HttpStatus.BAD_REQUEST, QueueView.render(user, form, null, e.getMessage()));
        }
        return html(HttpStatus.OK, QueueView.render(user, form, queue.page(filter), null));
    }

    ServerResponse record(ServerRequest request) {
        Optional<StoredRecord> found = stored(request);
        if (found.isEmpty()) {
            return notFound(request);
        }
        StoredRecord stored = found.get();
        AuditRecord record = stored.record();
        RecordView.Model model = new RecordView.Model(stored, trail.link(stored), trail.treeStatus(stored), reviews.of(stored), timeline(stored),
                CodeOutputs.read(record.outputs(), json),
                record.kind().isExecution() ? files.list(record.team(), record.containerId()) : null,
                json.readTree(stored.record().details() == null ? "{}" : stored.record().details()),
                request.param("reviewed").isPresent() ? "Your review was recorded in the audit trail." : null);
        return html(HttpStatus.OK, RecordView.render(ConsoleUser.of(request), model));
    }

    /** An image of the record's own container (never another's: the container comes from the record). */
    ServerResponse image(ServerRequest request) {
        Optional<ContainerFiles.Image> image = stored(request).filter(stored -> stored.record().kind().isExecution())
                .flatMap(stored -> files.image(stored.record().team(), stored.record().containerId(), request.pathVariable("file")));
        if (image.isEmpty()) {
            return html(HttpStatus.NOT_FOUND, Layout.page("No such image", ConsoleUser.of(request),
                    "<p role=\"alert\">The container no longer holds this file, or it is not an image.</p>"));
        }
        return ServerResponse.ok().contentType(MediaType.parseMediaType(image.get().mediaType())).body(image.get().bytes());
    }

    ServerResponse review(ServerRequest request) {
        Optional<StoredRecord> found = stored(request);
        if (found.isEmpty()) {
            return notFound(request);
        }
        try {
            reviews.record(ConsoleUser.of(request), found.get(), request.param("verdict").orElse(""), request.param("note").orElse(""));
        } catch (IllegalArgumentException e) {
            return html(HttpStatus.BAD_REQUEST, Layout.page("Review not recorded", ConsoleUser.of(request),
                    "<p role=\"alert\" class=\"problem\">" + Html.esc(e.getMessage()) + "</p><p><a href=\"" + Layout.BASE + "/records/"
                            + found.get().seq() + "\">Back to the record</a></p>"));
        } catch (GatewayException e) {
            return html(HttpStatus.SERVICE_UNAVAILABLE, Layout.page("Review not recorded", ConsoleUser.of(request),
                    "<p role=\"alert\" class=\"problem\">The audit trail cannot store the review right now; nothing was recorded. "
                            + "Send it again shortly.</p>"));
        }
        return ServerResponse.seeOther(URI.create(Layout.BASE + "/records/" + found.get().seq() + "?reviewed")).build();
    }

    ServerResponse search(ServerRequest request) {
        SearchView.By by = SearchView.By.of(request.param("by").orElse("user"));
        String term = request.param("q").map(String::strip).orElse("");
        ConsoleUser user = ConsoleUser.of(request);
        if (term.isEmpty()) {
            return html(HttpStatus.OK, SearchView.render(user, by, term, null, null));
        }
        if (by == SearchView.By.CODE_HASH && !SHA256.matcher(term.toLowerCase(Locale.ROOT)).matches()) {
            return html(HttpStatus.BAD_REQUEST, SearchView.render(user, by, term, null,
                    "A code hash is the 64 hexadecimal characters of its SHA-256, as a record's \"Code SHA-256\" shows it."));
        }
        List<StoredRecord> results = switch (by) {
            case USER -> trail.query(new AuditQuery(term, null, null, null, null, null, null, null, null, SEARCH_LIMIT));
            case SESSION -> trail.query(new AuditQuery(null, null, term, null, null, null, null, null, null, SEARCH_LIMIT));
            case CONTAINER -> trail.query(new AuditQuery(null, null, null, term, null, null, null, null, null, SEARCH_LIMIT));
            case CODE_HASH -> trail.withCodeHash(term.toLowerCase(Locale.ROOT), SEARCH_LIMIT);
        };
        return html(HttpStatus.OK, SearchView.render(user, by, term, results, null));
    }

    ServerResponse verify(ServerRequest request) {
        ChainVerification verification = trail.verify();
        String result = verification.intact()
                ? "<p role=\"status\" class=\"ok\">Intact: " + verification.checked() + " records checked from the chain's base.</p>"
                : "<p role=\"alert\" class=\"problem\">Broken at <a href=\"" + Layout.BASE + "/records/" + verification.firstBrokenSeq()
                        + "\">record #" + verification.firstBrokenSeq() + "</a>: " + Html.esc(verification.problem()) + " ("
                        + verification.checked() + " records checked before it).</p>";
        return html(HttpStatus.OK, Layout.page("Chain check", ConsoleUser.of(request), result));
    }

    /** The records of the block's session around it: up to ten before and ten after. */
    private List<StoredRecord> timeline(StoredRecord stored) {
        return stored.record().session() == null ? List.of()
                : trail.sessionAround(stored.record().session(), stored.seq(), TIMELINE_AROUND);
    }

    private Optional<StoredRecord> stored(ServerRequest request) {
        try {
            return trail.record(Long.parseLong(request.pathVariable("seq")));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static ServerResponse notFound(ServerRequest request) {
        return html(HttpStatus.NOT_FOUND, Layout.page("No such record", ConsoleUser.of(request),
                "<p role=\"alert\">The audit trail holds no record at this place (retention may have removed it). "
                        + "<a href=\"" + Layout.BASE + "\">Back to the queue</a></p>"));
    }

    static ServerResponse html(HttpStatus status, String page) {
        return ServerResponse.status(status).contentType(Layout.HTML).body(page);
    }

    private static String flag(String flag) {
        if (flag != null && !FLAG.matcher(flag).matches()) {
            throw new IllegalArgumentException("A flag is a name such as env_access (lower case letters, digits, '_').");
        }
        return flag;
    }

    /** Code blocks ({@code code}), shell calls ({@code shell}) or both ({@code all}, or none given). */
    private static AuditRecord.Kind kind(String kind) {
        return switch (kind == null ? "all" : kind) {
            case "all" -> null;
            case "code" -> AuditRecord.Kind.CODE_EXECUTION;
            case "shell" -> AuditRecord.Kind.SHELL_EXECUTION;
            default -> throw new IllegalArgumentException("Kind is one of code, shell or all.");
        };
    }

    private static ReviewQueue.State state(String state) {
        try {
            return state == null ? ReviewQueue.State.OPEN : ReviewQueue.State.valueOf(state.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Show is one of open, reviewed or all.");
        }
    }

    private static Long cursor(String after) {
        try {
            return Long.parseLong(after);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The page cursor is not a record number; start again from the first page.");
        }
    }

    /** An ISO-8601 instant, or a date and time without a zone, taken as UTC. */
    private static Instant instant(String value, String field) {
        if (value == null) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException notAnInstant) {
            try {
                return LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
            } catch (DateTimeParseException e) {
                throw new IllegalArgumentException(field + " must be a UTC time such as 2026-12-01T09:00:00Z.");
            }
        }
    }
}
