package com.sandboxgateway.audit.tlog;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * The tree against RFC 6962/9162 test data (Certificate Transparency's reference leaves, written down
 * from transparency-dev/merkle {@code testonly/constants.go} and the CT proof tests), and every proof of
 * every tree up to 300 leaves against the RFC's recursive definition.
 */
class MerkleProofsTest {

    private static final HexFormat HEX = HexFormat.of();

    private static final String[] CT_LEAVES = {"", "00", "10", "2021", "3031", "40414243", "5051525354555657",
            "606162636465666768696a6b6c6d6e6f"};

    /** Roots of the trees of the first 0..8 reference leaves. */
    private static final String[] CT_ROOTS = {
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
            "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
            "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
            "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
            "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
            "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};

    @Test
    void shouldMatchTheCertificateTransparencyRootsForEverySize() {
        MemoryLog log = new MemoryLog();
        assertThat(HEX.formatHex(log.frontier.root())).isEqualTo(CT_ROOTS[0]);
        for (int size = 1; size <= CT_LEAVES.length; size++) {
            log.append(HEX.parseHex(CT_LEAVES[size - 1]));
            assertThat(HEX.formatHex(log.frontier.root())).as("size %d", size).isEqualTo(CT_ROOTS[size]);
            assertThat(HEX.formatHex(MerkleProofs.root(size, log))).as("size %d from stored nodes", size).isEqualTo(CT_ROOTS[size]);
        }
        assertThat(HEX.formatHex(log.node(0, 1))).isEqualTo("96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7");
        assertThat(HEX.formatHex(log.node(1, 3))).isEqualTo("ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0");
        assertThat(HEX.formatHex(log.node(2, 1))).isEqualTo("6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4");
    }

    @Test
    void shouldGiveTheCertificateTransparencyProofs() {
        MemoryLog log = new MemoryLog();
        for (String leaf : CT_LEAVES) {
            log.append(HEX.parseHex(leaf));
        }
        assertThat(hex(MerkleProofs.inclusion(0, 8, log))).containsExactly(
                "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4");
        assertThat(hex(MerkleProofs.inclusion(5, 8, log))).containsExactly(
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7");
        assertThat(hex(MerkleProofs.consistency(2, 8, log))).containsExactly(
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4");
        assertThat(hex(MerkleProofs.consistency(6, 8, log))).containsExactly(
                "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
                "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
                "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7");
        assertThat(hex(MerkleProofs.consistency(2, 5, log))).containsExactly(
                "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
                "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b");
    }

    @Test
    void shouldProveEveryLeafOfEveryTreeUpTo300AndNothingElse() {
        MemoryLog log = new MemoryLog();
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] entry = ("record " + i).getBytes();
            log.append(entry);
            leaves.add(MerkleHash.leaf(entry));
        }
        for (int size = 1; size <= 300; size++) {
            byte[] root = reference(leaves.subList(0, size));
            assertThat(MerkleProofs.root(size, log)).as("root of %d", size).isEqualTo(root);
            for (int index = 0; index < size; index++) {
                List<byte[]> proof = MerkleProofs.inclusion(index, size, log);
                assertThat(MerkleProofs.verifyInclusion(leaves.get(index), index, size, proof, root))
                        .as("leaf %d of %d", index, size).isTrue();
                assertThat(MerkleProofs.verifyInclusion(leaves.get((index + 1) % 300), index, size, proof, root))
                        .as("another leaf at %d of %d", index, size).isFalse();
                if (size > 1) {
                    assertThat(MerkleProofs.verifyInclusion(leaves.get(index), (index + 1) % size, size, proof, root))
                            .as("leaf %d of %d at the wrong index", index, size).isFalse();
                }
            }
        }
    }

    @Test
    void shouldProveEveryTreeUpTo300ExtendsEveryEarlierOneAndNothingElse() {
        MemoryLog log = new MemoryLog();
        List<byte[]> leaves = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            byte[] entry = ("record " + i).getBytes();
            log.append(entry);
            leaves.add(MerkleHash.leaf(entry));
        }
        List<byte[]> roots = new ArrayList<>();
        for (int size = 0; size <= 300; size++) {
            roots.add(reference(leaves.subList(0, size)));
        }
        for (int to = 1; to <= 300; to++) {
            for (int from = 1; from <= to; from++) {
                List<byte[]> proof = MerkleProofs.consistency(from, to, log);
                assertThat(MerkleProofs.verifyConsistency(from, to, roots.get(from), roots.get(to), proof))
                        .as("%d -> %d", from, to).isTrue();
                if (from < to) {
                    assertThat(MerkleProofs.verifyConsistency(from, to, roots.get(from - 1), roots.get(to), proof))
                            .as("%d -> %d from another root", from, to).isFalse();
                    List<byte[]> tampered = new ArrayList<>(proof);
                    if (!tampered.isEmpty()) {
                        tampered.set(tampered.size() - 1, leaves.get(0));
                        assertThat(MerkleProofs.verifyConsistency(from, to, roots.get(from), roots.get(to), tampered))
                                .as("%d -> %d with a tampered proof", from, to).isFalse();
                    }
                }
            }
        }
    }

    @Test
    void shouldNumberStoredNodesDenselyInTheOrderAppendsCreateThem() {
        List<Long> keys = new ArrayList<>();
        TreeFrontier frontier = TreeFrontier.empty();
        for (int i = 0; i < 1000; i++) {
            frontier.append(MerkleHash.leaf(new byte[] {(byte) i}), (level, index, hash) -> keys.add(TreeNodes.key(level, index)));
            assertThat(keys).hasSize((int) TreeNodes.createdBefore(i + 1));
        }
        for (int i = 0; i < keys.size(); i++) {
            assertThat(keys.get(i)).isEqualTo(i);
        }
    }

    @Test
    void shouldKeepTheFrontierAcrossEncoding() {
        TreeFrontier frontier = TreeFrontier.empty();
        for (int i = 0; i < 77; i++) {
            frontier.append(MerkleHash.leaf(new byte[] {(byte) i}), (level, index, hash) -> { });
        }
        TreeFrontier decoded = TreeFrontier.decode(77, frontier.encoded());
        assertThat(decoded.root()).isEqualTo(frontier.root());
        byte[] next = MerkleHash.leaf(new byte[] {77});
        frontier.append(next, (level, index, hash) -> { });
        decoded.append(next, (level, index, hash) -> { });
        assertThat(decoded.root()).isEqualTo(frontier.root());
    }

    /** RFC 9162 §2.1.1, word for word: MTH(D[n]) = HASH(0x01 || MTH(D[0:k]) || MTH(D[k:n])), k the largest power of 2 below n. */
    private static byte[] reference(List<byte[]> leafHashes) {
        if (leafHashes.isEmpty()) {
            return MerkleHash.empty();
        }
        if (leafHashes.size() == 1) {
            return leafHashes.getFirst();
        }
        int k = 1;
        while (k * 2 < leafHashes.size()) {
            k *= 2;
        }
        return MerkleHash.node(reference(leafHashes.subList(0, k)), reference(leafHashes.subList(k, leafHashes.size())));
    }

    private static List<String> hex(List<byte[]> hashes) {
        return hashes.stream().map(HEX::formatHex).toList();
    }

    /** A log in memory: its frontier and every complete node. */
    private static final class MemoryLog implements NodeSource {

        final TreeFrontier frontier = TreeFrontier.empty();
        final Map<Long, byte[]> nodes = new HashMap<>();

        void append(byte[] entry) {
            frontier.append(MerkleHash.leaf(entry), (level, index, hash) -> nodes.put(TreeNodes.key(level, index), hash));
        }

        @Override
        public byte[] node(int level, long index) {
            byte[] hash = nodes.get(TreeNodes.key(level, index));
            assertThat(hash).as("node %d/%d", level, index).isNotNull();
            return hash;
        }
    }
}
