package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

class NameGlobTest {

    @Test
    void shouldMatchTheNameAndItsAttributesOnly() {
        assertThat(NameGlob.of("os.environ").matches("os.environ.get")).isTrue();
        assertThat(NameGlob.of("os.environ").matches("os.environb")).isFalse();
        assertThat(NameGlob.of("os.exec*").matches("os.execvp")).isTrue();
        assertThat(NameGlob.of("*.to_csv").matches("df.head.to_csv")).isTrue();
        assertThat(NameGlob.of("*.to_csv").matches("df.to_csv_file")).isFalse();
        assertThat(NameGlob.of("*.to_csv").matches("to_csv")).isFalse();
        assertThat(NameGlob.of("a.*.c").matches("a.b.c.d")).isTrue();
    }

    /** The string comparisons that stand in for the pattern must agree with it on every glob of the standard rules. */
    @Test
    void shouldAgreeWithItsPatternOnEveryStandardGlob() {
        List<NameGlob> globs = standardLists().stream().flatMap(list -> list.globs().stream()).collect(Collectors.toList());
        globs.add(NameGlob.of("a.*.c"));
        globs.add(NameGlob.of("*x*"));
        for (NameGlob glob : globs) {
            for (String name : namesAround(globs)) {
                assertThat(glob.matches(name)).as("%s on %s", glob.glob(), name).isEqualTo(glob.pattern().matcher(name).matches());
            }
        }
    }

    /** A list's index only narrows which globs are tried: it must answer as its globs one by one do. */
    @Test
    void shouldMatchAsAListWhatItsGlobsMatchOneByOne() {
        List<NameGlobs> lists = new ArrayList<>(standardLists());
        lists.add(new NameGlobs(List.of(NameGlob.of("a.*.c"), NameGlob.of("*x*"), NameGlob.of("*.a.b"), NameGlob.of("*.to_*"),
                NameGlob.of("os*"), NameGlob.of("*open"))));
        List<NameGlob> all = lists.stream().flatMap(list -> list.globs().stream()).toList();
        for (NameGlobs list : lists) {
            for (String name : namesAround(all)) {
                assertThat(list.matches(NameGlobs.DottedName.of(name))).as("%s on %s", list.globs(), name)
                        .isEqualTo(list.globs().stream().anyMatch(glob -> glob.matches(name)));
            }
        }
    }

    private static List<NameGlobs> standardLists() {
        CodeRules rules = CodeRules.standard();
        List<NameGlobs> lists = new ArrayList<>(List.of(rules.shellCalls(), rules.pathCalls(), rules.codeCalls()));
        rules.flags().forEach(flag -> lists.addAll(List.of(flag.names(), flag.sinks(), flag.sources(), flag.sizeCalls())));
        return lists;
    }

    /** Names at and around each glob's edges: the glob's own text, with its stars filled, extended, prefixed. */
    private static Set<String> namesAround(List<NameGlob> globs) {
        Set<String> names = new LinkedHashSet<>(List.of("", "os", "os.", "os.environ", "os.environb", "os.environ.get", "xos.environ",
                "df.to_csv", "df.to_csv.x", "df.to_csvx", ".to_csv", "to_csv", "a.to_csv.to_csv", "subprocess", "subprocess.run",
                "subprocessx.run", "pandas.read_csv", "pandas.read_", "pandas.read", "a.b.c", "a.c", "?.system", "x", "a..b", "x.a.b"));
        for (NameGlob glob : globs) {
            String text = glob.glob();
            names.add(text.replace("*", ""));
            names.add(text.replace("*", "zz"));
            names.add(text.replace("*", "") + ".attr");
            names.add("pre." + text.replace("*", "q"));
            names.add(text.replace("*", "q") + "x");
        }
        return names;
    }
}
