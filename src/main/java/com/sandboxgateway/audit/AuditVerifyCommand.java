package com.sandboxgateway.audit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.sandboxgateway.audit.tlog.Checkpoint;
import com.sandboxgateway.audit.tlog.NoteVerifier;
import com.sandboxgateway.audit.tlog.TreeFrontier;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code java -jar gateway.jar audit-verify --export records.jsonl --checkpoint cp.txt --public-key key.pub}:
 * checks an export of the whole audit log against signed checkpoints with nothing else running. Every
 * checkpoint in the file (a file witness holds many) must carry a valid signature by the key, and the
 * Merkle root over the export's first {@code size} records must be the one it signed. Each record must
 * come in seq order from 1, link to the one before, and match its own chain and leaf hashes, so the first
 * record that was changed, removed or moved is named. Exit status 0: verified; 1: it does not verify; 2:
 * the command or its files are unusable.
 */
public final class AuditVerifyCommand {

    private final PrintStream out;
    private final JsonMapper json = JsonMapper.builder().build();
    private final AuditChain chain = new AuditChain(json);

    private AuditVerifyCommand(PrintStream out) {
        this.out = out;
    }

    /** Runs the command on its arguments (after {@code audit-verify}); returns the exit status. */
    public static int run(List<String> args, PrintStream out) {
        Map<String, Path> files = new HashMap<>();
        for (int i = 0; i + 1 < args.size(); i += 2) {
            files.put(args.get(i), Path.of(args.get(i + 1)));
        }
        if (args.size() != 6 || !files.keySet().equals(Set.of("--export", "--checkpoint", "--public-key"))) {
            out.println("usage: audit-verify --export records.jsonl --checkpoint cp.txt --public-key key.pub");
            return 2;
        }
        try {
            return new AuditVerifyCommand(out).verify(files.get("--export"), files.get("--checkpoint"), files.get("--public-key"));
        } catch (IOException e) {
            out.println("cannot read " + e.getMessage());
            return 2;
        }
    }

    private int verify(Path export, Path checkpointFile, Path publicKey) throws IOException {
        NoteVerifier verifier;
        try {
            verifier = NoteVerifier.parse(Files.readString(publicKey, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            out.println(publicKey + " is not a verifier key: " + e.getMessage());
            return 2;
        }
        Deque<Checkpoint> pending = new ArrayDeque<>();
        List<String> notes = NoteVerifier.split(Files.readString(checkpointFile, StandardCharsets.UTF_8));
        if (notes.isEmpty()) {
            out.println(checkpointFile + " holds no signed note");
            return 2;
        }
        for (String note : notes) {
            try {
                pending.add(Checkpoint.parse(verifier.open(note)));
            } catch (IllegalArgumentException e) {
                return failed("a checkpoint in " + checkpointFile + " does not verify: " + e.getMessage());
            }
        }
        pending = new ArrayDeque<>(pending.stream().sorted(Comparator.comparingLong(Checkpoint::size)).toList());
        TreeFrontier tree = TreeFrontier.empty();
        String previousHash = AuditChain.GENESIS;
        long matched = 0;
        try (BufferedReader lines = Files.newBufferedReader(export, StandardCharsets.UTF_8)) {
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                long expected = tree.size() + 1;
                StoredRecord stored;
                try {
                    stored = json.readValue(line, StoredRecord.class);
                } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
                    return failed("record seq " + expected + " is not an exported audit record (line " + expected + ")");
                }
                String problem = problem(stored, expected, previousHash);
                if (problem != null) {
                    return failed(problem);
                }
                tree.append(chain.hashes(stored.prevHash(), stored.seq(), stored.record()).leafHash(), (level, index, hash) -> { });
                previousHash = stored.hash();
                while (!pending.isEmpty() && pending.peek().size() == tree.size()) {
                    Checkpoint checkpoint = pending.poll();
                    if (!Arrays.equals(checkpoint.root(), tree.root())) {
                        return failed("records 1.." + tree.size() + " do not match the signed checkpoint of tree size "
                                + checkpoint.size() + ": a record after seq " + matched + " was rewritten, hashes and all");
                    }
                    matched = checkpoint.size();
                }
            }
        }
        if (!pending.isEmpty()) {
            return failed("the signed checkpoint covers " + pending.getLast().size() + " records but the export ends at seq "
                    + tree.size() + ": record seq " + (tree.size() + 1) + " and after are missing");
        }
        out.println("OK: " + tree.size() + " records, chain intact; " + notes.size() + " checkpoint(s) signed by "
                + verifier.verifierKey().split("\\+", 3)[0] + ", the latest at tree size " + matched + ", match"
                + (tree.size() > matched ? "; records " + (matched + 1) + ".." + tree.size() + " are not covered by a checkpoint yet" : ""));
        return 0;
    }

    /** What is wrong with the record in place {@code expected}, or null. */
    private String problem(StoredRecord stored, long expected, String previousHash) {
        String name = "record seq " + expected;
        if (stored.seq() > expected) {
            return name + " is not where it belongs: seq " + stored.seq() + " comes in its place (seq " + expected
                    + " was removed or moved)";
        }
        if (stored.seq() < expected) {
            return "record seq " + stored.seq() + " is out of place: it comes where seq " + expected + " belongs";
        }
        name += " (record_id " + stored.record().recordId() + ")";
        if (!previousHash.equals(stored.prevHash())) {
            return name + " does not link to the record before it";
        }
        AuditChain.Hashes hashes = chain.hashes(stored.prevHash(), stored.seq(), stored.record());
        if (stored.leafHash() != null && !stored.leafHash().equals(Base64.getEncoder().encodeToString(hashes.leafHash()))) {
            return name + " does not match its leaf hash: its content was changed after it was written";
        }
        if (!hashes.chainHash().equals(stored.hash())) {
            return name + " does not match its chain hash: its content was changed after it was written";
        }
        return null;
    }

    private int failed(String problem) {
        out.println("FAILED: " + problem);
        return 1;
    }
}
