#!/usr/bin/env bash
# Builds and tests a Java project laid out the Maven way (src/main/java, src/test/java and their
# resources) with javac and JUnit's console launcher, offline, from the jars in /usr/share/java:
#
#   javac-build.sh compile            compile main and test sources into target/javac/
#   javac-build.sh test [CLASS...]    run those test classes (all of them when none is named);
#                                     JUnit XML reports go to target/surefire-reports/
#
# It serves as `build.compile` / `build.test` for projects whose own build cannot resolve its
# plugins offline (see eval/real/README.md). JAVAC_BUILD_CP replaces the default classpath
# (JUnit 4 and 5, Hamcrest, Jetty 9 and the Servlet API); JAVAC_BUILD_RELEASE the `--release`.
set -euo pipefail

jars=/usr/share/java
default_cp=$(printf '%s:' \
    "$jars/junit4.jar" "$jars/hamcrest-all.jar" "$jars/junit-jupiter-api.jar" \
    "$jars/junit-jupiter-params.jar" "$jars/opentest4j.jar" "$jars/apiguardian-api.jar" \
    "$jars/junit-platform-commons.jar" "$jars/commons-lang.jar" "$jars/gson.jar" "$jars/jsr305.jar" \
    "$jars"/jetty9-*.jar "$jars/servlet-api.jar")
cp=${JAVAC_BUILD_CP:-${default_cp%:}}
release=${JAVAC_BUILD_RELEASE:-8}
out=target/javac

compile() {
    rm -rf "$out"
    mkdir -p "$out/main" "$out/test"
    find src/main/java -name '*.java' > "$out/main.list"
    javac -nowarn -encoding UTF-8 -proc:none --release "$release" -Xlint:none -d "$out/main" -cp "$cp" "@$out/main.list"
    if [ -d src/main/resources ]; then cp -r src/main/resources/. "$out/main/"; fi
    if [ -d src/test/java ]; then
        find src/test/java -name '*.java' > "$out/test.list"
        javac -nowarn -encoding UTF-8 -proc:none --release "$release" -Xlint:none -d "$out/test" \
            -cp "$out/main:$cp" "@$out/test.list"
    fi
    if [ -d src/test/resources ]; then cp -r src/test/resources/. "$out/test/"; fi
}

run_tests() {
    [ -d "$out/main" ] || compile
    local select=()
    for class in "$@"; do select+=(--select-class "$class"); done
    if [ ${#select[@]} -eq 0 ]; then select=(--scan-classpath "$out/test"); fi
    rm -rf target/surefire-reports
    java -jar "$jars/junit-platform-console-standalone.jar" --disable-banner --details=none \
        --disable-ansi-colors --reports-dir target/surefire-reports \
        -cp "$out/test:$out/main:$cp" "${select[@]}"
}

case "${1:-}" in
    compile) compile ;;
    test) shift; run_tests "$@" ;;
    *) echo "usage: $0 compile | test [CLASS...]" >&2; exit 2 ;;
esac
