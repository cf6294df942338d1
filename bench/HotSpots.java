import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Condenses a JFR recording of the gateway into the few numbers worth reading after a benchmark:
 * where CPU samples land (top self frames, and which of the gateway's own methods are on the stack),
 * where the gateway's own code allocates, and how long GC paused.
 *
 * <p>Usage: {@code java bench/HotSpots.java <recording.jfr> [package-prefix] [top]}; the prefix
 * defaults to {@code com.sandboxgateway.}. {@code jfr print}/{@code jfr summary} show the same data
 * unaggregated; this exists because a few thousand raw stacks are not readable.
 */
public final class HotSpots {

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: java HotSpots.java <recording.jfr> [package-prefix] [top]");
            System.exit(2);
        }
        String prefix = args.length > 1 ? args[1] : "com.sandboxgateway.";
        int top = args.length > 2 ? Integer.parseInt(args[2]) : 15;

        // CPU samples per event type: jdk.ExecutionSample (every JDK) and jdk.CPUTimeSample (JDK 25+,
        // experimental, driven by CPU time rather than wall clock, so blocked threads cannot skew it).
        // The type with more samples is reported.
        Map<String, CpuProfile> profiles = new HashMap<>();
        // Allocation samples, weighed once the recording is read.
        List<Allocation> allocations = new ArrayList<>();
        // The heap in use before and after each collection, by GC id: what the recording allocated in all.
        Map<Long, long[]> heapAroundGc = new TreeMap<>();
        long gcPauseNanos = 0;
        long gcPauses = 0;
        long longestPauseNanos = 0;

        for (RecordedEvent event : RecordingFile.readAllEvents(Path.of(args[0]))) {
            String type = event.getEventType().getName();
            switch (type) {
                case "jdk.ExecutionSample", "jdk.CPUTimeSample" ->
                        profiles.computeIfAbsent(type, t -> new CpuProfile()).add(frames(event.getStackTrace()), prefix);
                case "jdk.ObjectAllocationSample" -> {
                    // Attributed to the innermost frame of our own code: that is the line to change.
                    String site = null;
                    for (RecordedFrame frame : frames(event.getStackTrace())) {
                        if (name(frame).startsWith(prefix)) {
                            site = name(frame) + ":" + frame.getLineNumber();
                            break;
                        }
                    }
                    allocations.add(new Allocation(event.getLong("weight"), site));
                }
                case "jdk.GCHeapSummary" -> heapAroundGc.computeIfAbsent(event.getLong("gcId"), id -> new long[2])
                        ["Before GC".equals(event.getString("when")) ? 0 : 1] = event.getLong("heapUsed");
                case "jdk.GCPhasePause" -> {
                    long nanos = event.getDuration().toNanos();
                    gcPauses++;
                    gcPauseNanos += nanos;
                    longestPauseNanos = Math.max(longestPauseNanos, nanos);
                }
                default -> { }
            }
        }

        CpuProfile cpu = profiles.entrySet().stream()
                .max(Map.Entry.comparingByValue((a, b) -> Long.compare(a.samples, b.samples)))
                .map(Map.Entry::getValue).orElse(new CpuProfile());
        String cpuType = profiles.entrySet().stream().filter(e -> e.getValue() == cpu).map(Map.Entry::getKey)
                .findFirst().orElse("no CPU sample events");
        System.out.printf(Locale.ROOT, "%d CPU samples (%s), %.1f%% with %s* on the stack%n", cpu.samples, cpuType,
                pct(cpu.samplesWithOwnCode, cpu.samples), prefix);
        print("Top self frames (share of all samples)", cpu.self, cpu.samples, top, false);
        print("Own methods on the stack (inclusive share of all samples)", cpu.ownInclusive, cpu.samples, top, false);
        // A sample's weight is what its thread allocated since its last sample; now and then JFR reports one heavier
        // than everything the recording allocated (what each collection found, plus the heap at the end at most), which
        // would swamp the table: those are dropped and counted.
        long allocated = 0;
        long afterPrevious = 0;
        long largest = 0;
        for (long[] heap : heapAroundGc.values()) {
            allocated += Math.max(0, heap[0] - afterPrevious);
            afterPrevious = heap[1];
            largest = Math.max(largest, heap[0]);
        }
        long bound = heapAroundGc.isEmpty() ? Long.MAX_VALUE : allocated + largest;
        Map<String, Long> ownAllocation = new HashMap<>();
        long allocationTotal = 0;
        long dropped = 0;
        for (Allocation sample : allocations) {
            if (sample.weight() > bound) {
                dropped++;
                continue;
            }
            allocationTotal += sample.weight();
            if (sample.site() != null) {
                ownAllocation.merge(sample.site(), sample.weight(), Long::sum);
            }
        }
        long ownAllocationTotal = ownAllocation.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf(Locale.ROOT, "%nAllocation: %.0f MB sampled in total, %.1f%% attributed to %s*%s%n",
                allocationTotal / 1e6, pct(ownAllocationTotal, allocationTotal), prefix,
                dropped == 0 ? "" : String.format(Locale.ROOT, " (%d samples heavier than the %.0f MB the recording allocated dropped)",
                        dropped, bound / 1e6));
        print("Own allocation sites (share of all sampled bytes)", ownAllocation, allocationTotal, top, true);
        System.out.printf(Locale.ROOT, "%nGC pauses: %d, %.1f ms in total, longest %.2f ms%n", gcPauses,
                gcPauseNanos / 1e6, longestPauseNanos / 1e6);
    }

    /** One allocation sample: the bytes it stands for, and the innermost own-code frame it came from (null: none). */
    private record Allocation(long weight, String site) {
    }

    /** Self and own-code inclusive counts for one kind of CPU sample. */
    private static final class CpuProfile {
        final Map<String, Long> self = new HashMap<>();
        final Map<String, Long> ownInclusive = new HashMap<>();
        long samples;
        long samplesWithOwnCode;

        void add(List<RecordedFrame> frames, String prefix) {
            if (frames.isEmpty()) {
                return;
            }
            samples++;
            self.merge(name(frames.get(0)), 1L, Long::sum);
            Set<String> seen = new HashSet<>();
            for (RecordedFrame frame : frames) {
                String method = name(frame);
                if (method.startsWith(prefix) && seen.add(method)) {
                    ownInclusive.merge(method, 1L, Long::sum);
                }
            }
            if (!seen.isEmpty()) {
                samplesWithOwnCode++;
            }
        }
    }

    private static List<RecordedFrame> frames(RecordedStackTrace stack) {
        return stack == null ? List.of() : stack.getFrames();
    }

    private static String name(RecordedFrame frame) {
        return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
    }

    private static double pct(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static void print(String title, Map<String, Long> counts, long total, int top, boolean bytes) {
        System.out.println();
        System.out.println(title + ":");
        Map<String, Long> sorted = new LinkedHashMap<>();
        counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(top)
                .forEach(e -> sorted.put(e.getKey(), e.getValue()));
        if (sorted.isEmpty()) {
            System.out.println("  (none)");
        }
        sorted.forEach((method, count) -> System.out.printf(Locale.ROOT, "  %5.1f%%  %s%s%n", pct(count, total),
                method, bytes ? String.format(Locale.ROOT, "  (%.1f MB)", count / 1e6) : ""));
    }
}
