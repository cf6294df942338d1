package com.sandboxgateway.review;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

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
        CodeRules rules = CodeRules.standard();
        List<NameGlob> globs = new ArrayList<>(rules.shellCalls());
        globs.addAll(rules.pathCalls());
        globs.addAll(rules.codeCalls());
        rules.flags().forEach(flag -> {
            globs.addAll(flag.names());
            globs.addAll(flag.sinks());
            globs.addAll(flag.sources());
            globs.addAll(flag.sizeCalls());
        });
        globs.add(NameGlob.of("a.*.c"));
        globs.add(NameGlob.of("*x*"));
        Set<String> names = new LinkedHashSet<>(List.of("", "os", "os.", "os.environ", "os.environb", "os.environ.get", "xos.environ",
                "df.to_csv", "df.to_csv.x", "df.to_csvx", ".to_csv", "to_csv", "a.to_csv.to_csv", "subprocess", "subprocess.run",
                "subprocessx.run", "pandas.read_csv", "pandas.read_", "pandas.read", "a.b.c", "a.c", "?.system", "x"));
        for (NameGlob glob : globs) {
            String text = glob.glob();
            names.add(text.replace("*", ""));
            names.add(text.replace("*", "zz"));
            names.add(text.replace("*", "") + ".attr");
            names.add("pre." + text.replace("*", "q"));
            names.add(text.replace("*", "q") + "x");
        }
        for (NameGlob glob : globs) {
            for (String name : names) {
                assertThat(glob.matches(name)).as("%s on %s", glob.glob(), name).isEqualTo(glob.pattern().matcher(name).matches());
            }
        }
    }
}
