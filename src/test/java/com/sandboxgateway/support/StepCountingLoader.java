package com.sandboxgateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Loads the classes of some packages afresh with their work made countable: every method entry and
 * every branch calls {@link CountedSteps#tick()}, and each call of a text-scanning JDK method that
 * {@link CountedSteps} mirrors goes to the mirror, which counts the characters it scans. Other
 * classes come from the parent loader. Call the loaded classes reflectively: their types are not the
 * test's.
 */
public final class StepCountingLoader extends ClassLoader {

    private static final String STEPS = Type.getInternalName(CountedSteps.class);
    /** Name and descriptor of every mirror, e.g. {@code indexOf(Ljava/lang/String;I)I}. */
    private static final Set<String> MIRRORS = Arrays.stream(CountedSteps.class.getDeclaredMethods())
            .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isStatic(m.getModifiers()))
            .map(m -> m.getName() + Type.getMethodDescriptor(m))
            .collect(Collectors.toUnmodifiableSet());

    private final List<String> packages;

    /** @param packages the packages to count, e.g. {@code com.sandboxgateway.secrets} */
    public StepCountingLoader(String... packages) {
        super(StepCountingLoader.class.getClassLoader());
        this.packages = Arrays.stream(packages).map(p -> p + ".").toList();
    }

    /** A static method of a counted class, made callable. */
    public Method staticMethod(String className, String name, Class<?>... parameterTypes) {
        try {
            Method method = loadClass(className).getDeclaredMethod(name, parameterTypes);
            method.setAccessible(true);
            return method;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Calls {@code method} on {@code target} ({@code null} for a static one). */
    public static Object call(Method method, Object target, Object... arguments) {
        try {
            return method.invoke(target, arguments);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A public method of {@code target}'s class. */
    public static Method method(Object target, String name, Class<?>... parameterTypes) {
        try {
            return target.getClass().getMethod(name, parameterTypes);
        } catch (NoSuchMethodException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (packages.stream().noneMatch(name::startsWith)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                byte[] counted = instrument(classBytes(name));
                loaded = defineClass(name, counted, 0, counted.length);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    private byte[] classBytes(String name) throws ClassNotFoundException {
        try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
            if (in == null) {
                throw new ClassNotFoundException(name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] instrument(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new Counting(super.visitMethod(access, name, descriptor, signature, exceptions));
            }
        }, 0);
        return writer.toByteArray();
    }

    private static final class Counting extends MethodVisitor {

        Counting(MethodVisitor next) {
            super(Opcodes.ASM9, next);
        }

        private void tick() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, STEPS, "tick", "()V", false);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            tick();
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            tick();
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            tick();
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            tick();
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            String mirror = switch (opcode) {
                case Opcodes.INVOKEVIRTUAL -> "(L" + owner + ";" + descriptor.substring(1);
                case Opcodes.INVOKESTATIC -> descriptor;
                default -> null;
            };
            if (mirror != null && owner.startsWith("java/") && MIRRORS.contains(name + mirror)) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, STEPS, name, mirror, false);
            } else {
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            }
        }
    }
}
