/* "Did you mean": the names closest to a mistyped one, by Levenshtein edit
 * distance (insertions, deletions and substitutions each cost 1), ignoring
 * case; names that contain the typed text come first. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ikc.h"

#define IKC_NAME_MAX 256

int ikc_edit_distance(const char *a, const char *b) {
    int row[IKC_NAME_MAX + 1];
    size_t la = strlen(a), lb = strlen(b), i, j;
    if (la > IKC_NAME_MAX) la = IKC_NAME_MAX;
    if (lb > IKC_NAME_MAX) lb = IKC_NAME_MAX;
    for (j = 0; j <= lb; ++j) row[j] = (int)j;
    for (i = 1; i <= la; ++i) {
        int diagonal = row[0];
        row[0] = (int)i;
        for (j = 1; j <= lb; ++j) {
            int above = row[j];
            int cost = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]) ? 0 : 1;
            int best = diagonal + cost;
            if (above + 1 < best) best = above + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    return row[lb];
}

static int contains_ignoring_case(const char *haystack, const char *needle) {
    size_t n = strlen(needle), i, k;
    if (n == 0) return 0;
    for (i = 0; haystack[i]; ++i) {
        for (k = 0; k < n && haystack[i + k]; ++k)
            if (tolower((unsigned char)haystack[i + k]) != tolower((unsigned char)needle[k])) break;
        if (k == n) return 1;
    }
    return 0;
}

/* Score: containment first, then edit distance; names further than half
 * their length away are not suggested. */
static int score(const char *name, const char *wanted) {
    int d = ikc_edit_distance(name, wanted);
    int limit = (int)(strlen(wanted) > strlen(name) ? strlen(wanted) : strlen(name)) / 2 + 1;
    if (contains_ignoring_case(name, wanted) || contains_ignoring_case(wanted, name)) return d;
    return d <= limit ? 1000 + d : -1;
}

void ikc_suggest_name(FILE *out, const char *const *names, int count, const char *wanted, int max_suggestions) {
    int best[8], best_score[8], found = 0, i, k;
    if (max_suggestions > 8) max_suggestions = 8;
    for (i = 0; i < count; ++i) {
        int s;
        if (!names[i] || !*names[i]) continue;
        s = score(names[i], wanted);
        if (s < 0) continue;
        for (k = found; k > 0 && best_score[k - 1] > s; --k) {
            if (k < max_suggestions) {
                best[k] = best[k - 1];
                best_score[k] = best_score[k - 1];
            }
        }
        if (k < max_suggestions) {
            best[k] = i;
            best_score[k] = s;
            if (found < max_suggestions) ++found;
        }
    }
    if (found == 0) {
        fprintf(out, "  (no similar name; `ikc info FILE` lists them all)\n");
        return;
    }
    fprintf(out, "  did you mean: ");
    for (k = 0; k < found; ++k) fprintf(out, "%s%s", k ? ", " : "", ikc_shown(names[best[k]]));
    fprintf(out, "?\n");
}

void ikc_suggest_joint(FILE *out, const ik_skeleton *skeleton, const char *wanted, int max_suggestions) {
    const char **names;
    int i;
    if (skeleton->joint_count < 1) return;
    names = (const char **)malloc((size_t)skeleton->joint_count * sizeof *names);
    if (!names) return;
    for (i = 0; i < skeleton->joint_count; ++i) names[i] = ik_skeleton_name(skeleton, i);
    ikc_suggest_name(out, names, skeleton->joint_count, wanted, max_suggestions);
    free(names);
}
