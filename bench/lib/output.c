// SPDX-License-Identifier: GPL-2.0
/* summary.json and CSV output in the results contract; see output.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interval.h"
#include "output.h"
#include "stats.h"

int atomic_open(struct atomic_file *af, const char *path)
{
	int fd, err;

	af->f = NULL;
	af->path = strdup(path);
	if (!af->path || asprintf(&af->tmp, "%s.tmp.XXXXXX", path) < 0) {
		free(af->path);
		af->path = af->tmp = NULL;
		return -ENOMEM;
	}
	fd = mkstemp(af->tmp);
	if (fd < 0) {
		err = errno;
		fprintf(stderr, "cannot create a temporary file for %s: %s\n", path, strerror(err));
		goto fail;
	}
	if (fchmod(fd, 0644) || !(af->f = fdopen(fd, "w"))) {
		err = errno;
		fprintf(stderr, "cannot open %s: %s\n", af->tmp, strerror(err));
		close(fd);
		unlink(af->tmp);
		goto fail;
	}
	return 0;
fail:
	free(af->path);
	free(af->tmp);
	af->path = af->tmp = NULL;
	return -err;
}

void atomic_abort(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	free(af->path);
	free(af->tmp);
	af->f = NULL;
	af->path = af->tmp = NULL;
}

int atomic_commit(struct atomic_file *af)
{
	int err = 0;

	if (fflush(af->f) || ferror(af->f) || fsync(fileno(af->f)))
		err = errno ? errno : EIO;
	if (fclose(af->f) && !err)
		err = errno;
	af->f = NULL;
	if (!err && rename(af->tmp, af->path))
		err = errno;
	if (err)
		fprintf(stderr, "cannot write %s: %s\n", af->path, strerror(err));
	atomic_abort(af);	/* frees; the temporary is gone after a rename */
	return -err;
}

int csv_open(struct atomic_file *af, const char *dir, const char *name, const char *header)
{
	char *path;
	int err;

	if (!name || !*name || strchr(name, '/')) {
		fprintf(stderr, "csv_open: bad file name '%s': must be a plain non-empty name\n",
			name ? name : "(null)");
		return -EINVAL;
	}
	if (!header || !*header || strchr(header, '\n')) {
		fprintf(stderr, "csv_open: bad header for %s: must be one non-empty line\n", name);
		return -EINVAL;
	}
	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	err = atomic_open(af, path);
	free(path);
	if (!err && fprintf(af->f, "%s\n", header) < 0)
		err = -EIO;
	return err;
}

int csv_write_samples(const char *dir, const char *name, const char *column,
		      const double *x, size_t n)
{
	struct atomic_file af;
	char *header;
	size_t i;
	int err;

	if (asprintf(&header, "sample,%s", column) < 0)
		return -ENOMEM;
	err = csv_open(&af, dir, name, header);
	free(header);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		fprintf(af.f, "%zu,%.17g\n", i, x[i]);
	return atomic_commit(&af);
}

struct out {
	char *dir;
	json_t *root;		/* the summary, rewritten on every change */
	json_t *targets;	/* targets.json: an array */
	json_t *conditions;	/* out_conditions: of the metrics added next, or NULL */
};

/* <dir>/<name> holding @j, atomically */
static int json_write(const char *dir, const char *name, json_t *j)
{
	struct atomic_file af;
	char *path;
	int err;

	if (asprintf(&path, "%s/%s", dir, name) < 0)
		return -ENOMEM;
	err = atomic_open(&af, path);
	if (err) {
		free(path);
		return err;
	}
	if (json_dumpf(j, af.f, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) ||
	    fputc('\n', af.f) == EOF) {
		atomic_abort(&af);
		fprintf(stderr, "cannot write %s\n", path);
		free(path);
		return -EIO;
	}
	free(path);
	return atomic_commit(&af);
}

static int out_write(struct out *o)
{
	int err = json_write(o->dir, "summary.json", o->root);

	return err ? err : json_write(o->dir, "targets.json", o->targets);
}

static void out_free(struct out *o)
{
	json_decref(o->root);
	json_decref(o->targets);
	json_decref(o->conditions);
	free(o->dir);
	free(o);
}

static int set_status(struct out *o, const char *failure)
{
	if (failure) {
		json_object_set_new(o->root, "status", json_string("failed"));
		return json_object_set_new(o->root, "reason", json_string(failure));
	}
	json_object_del(o->root, "reason");
	return json_object_set_new(o->root, "status", json_string("ok"));
}

struct out *out_open(const char *dir, const char *workload)
{
	struct out *o;

	if (!workload || !*workload || strchr(workload, '/')) {
		fprintf(stderr, "out_open: bad workload name '%s': must be non-empty, without '/'\n",
			workload ? workload : "(null)");
		return NULL;
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "out_open: cannot create %s: %s\n", dir, strerror(errno));
		return NULL;
	}
	o = calloc(1, sizeof(*o));
	if (!o || !(o->dir = strdup(dir)))
		goto nomem;
	o->root = json_pack("{s:i, s:s, s:s, s:s, s:[]}", "format_version", OUT_FORMAT_VERSION,
			    "workload", workload, "status", "failed",
			    "reason", "incomplete: the workload did not finish", "metrics");
	o->targets = json_array();
	if (!o->root || !o->targets)
		goto nomem;
	if (out_write(o)) {
		out_free(o);
		return NULL;
	}
	return o;
nomem:
	fprintf(stderr, "out_open: out of memory\n");
	if (o)
		out_free(o);
	return NULL;
}

static json_t *params_json(const char *metric, const char *const *params)
{
	json_t *obj = json_object();
	size_t i;

	for (i = 0; obj && params && params[i]; i += 2) {
		if (!params[i + 1] || !*params[i]) {
			fprintf(stderr, "out_metric %s: parameter '%s' %s\n", metric, params[i],
				*params[i] ? "has no value (the list must be key, value pairs)"
					   : "has an empty name");
			goto fail;
		}
		if (json_object_get(obj, params[i])) {
			fprintf(stderr, "out_metric %s: parameter '%s' given twice\n", metric, params[i]);
			goto fail;
		}
		if (json_object_set_new(obj, params[i], json_string(params[i + 1])))
			goto fail;
	}
	return obj;
fail:
	json_decref(obj);
	return NULL;
}

/* 1 when the summary already has a metric with this name and params */
static bool metric_exists(json_t *metrics, const char *name, json_t *params)
{
	json_t *m;
	size_t i;

	json_array_foreach(metrics, i, m) {
		if (!strcmp(json_string_value(json_object_get(m, "name")), name) &&
		    json_equal(json_object_get(m, "params"), params))
			return true;
	}
	return false;
}

/* "ci95": {"lo", "hi", "of", "method"}, or null when not computable */
static json_t *ci_json(const struct ci *ci)
{
	if (!ci || !isfinite(ci->lo) || !isfinite(ci->hi))
		return json_null();
	return json_pack("{s:f, s:f, s:s, s:s}", "lo", ci->lo, "hi", ci->hi,
			 "of", ci->of, "method", ci->method);
}

/* The params of a new metric as JSON, or NULL (error printed) */
static json_t *metric_params(struct out *o, const char *name, const char *const *params,
			     const char *unit, int *err)
{
	json_t *p;

	*err = -EINVAL;
	if (!name || !*name || !unit || !*unit) {
		fprintf(stderr, "out_metric: metric '%s' needs a non-empty name and unit (got unit '%s')\n",
			name ? name : "(null)", unit ? unit : "(null)");
		return NULL;
	}
	p = params_json(name, params);
	if (!p)
		return NULL;
	if (metric_exists(json_object_get(o->root, "metrics"), name, p)) {
		fprintf(stderr, "out_metric: metric '%s' with the same params added twice\n", name);
		json_decref(p);
		*err = -EEXIST;
		return NULL;
	}
	return p;
}

static int metric_add(struct out *o, json_t *m)
{
	if (m && o->conditions && json_object_set(m, "conditions", o->conditions)) {
		json_decref(m);
		return -ENOMEM;
	}
	if (!m || json_array_append_new(json_object_get(o->root, "metrics"), m))
		return -ENOMEM;
	return out_write(o);
}

int out_conditions(struct out *o, const char *const *conditions)
{
	json_t *c = NULL;

	if (conditions && conditions[0]) {
		c = params_json("conditions", conditions);
		if (!c)
			return -EINVAL;
	}
	json_decref(o->conditions);
	o->conditions = c;
	return 0;
}

int out_estimate(struct out *o, const char *name, const char *const *params,
		 const char *unit, double value, size_t n, const struct ci *ci)
{
	json_t *p;
	int err;

	if (!isfinite(value)) {
		fprintf(stderr, "out_estimate %s: value %g is not a finite number\n", name, value);
		return -EINVAL;
	}
	p = metric_params(o, name, params, unit, &err);
	if (!p)
		return err;
	return metric_add(o, json_pack("{s:s, s:o, s:s, s:I, s:f, s:n, s:n, s:n, s:n, s:n, s:o}",
				       "name", name, "params", p, "unit", unit,
				       "n", (json_int_t)n, "median", value, "mean", "stddev",
				       "min", "max", "p99", "ci95", ci_json(ci)));
}

int out_metric(struct out *o, const char *name, const char *const *params,
	       const char *unit, const double *x, size_t n)
{
	json_t *p, *m;
	struct stats st;
	struct ci ci;
	int err;

	p = metric_params(o, name, params, unit, &err);
	if (!p)
		return err;
	if (n == 0) {
		m = json_pack("{s:s, s:o, s:s, s:i, s:n, s:n, s:n, s:n, s:n, s:n, s:n}",
			      "name", name, "params", p, "unit", unit, "n", 0,
			      "median", "mean", "stddev", "min", "max", "p99", "ci95");
	} else {
		err = stats_compute(x, n, &st);
		if (err) {
			size_t i = 0;

			while (i < n && isfinite(x[i]))
				i++;
			if (err == -EINVAL)
				fprintf(stderr, "out_metric %s: sample %zu is %g, not a finite number\n",
					name, i, x[i]);
			else
				fprintf(stderr, "out_metric %s: out of memory\n", name);
			json_decref(p);
			return err;
		}
		ci_quantile(x, n, 0.5, &ci);	/* x checked finite above */
		m = json_pack("{s:s, s:o, s:s, s:I, s:f, s:f, s:f, s:f, s:f, s:o, s:o}",
			      "name", name, "params", p, "unit", unit, "n", (json_int_t)n,
			      "median", st.median, "mean", st.mean, "stddev", st.stddev,
			      "min", st.min, "max", st.max,
			      "p99", n >= STATS_P99_MIN_N ? json_real(st.p99) : json_null(),
			      "ci95", ci_json(&ci));
	}
	return metric_add(o, m);
}

static json_t *number_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

int out_target(struct out *o, const char *target, double measured, double limit,
	       const char *unit, enum target_verdict met, const char *why)
{
	json_t *t;

	if (!target || !*target || !unit || !why || !*why) {
		fprintf(stderr, "out_target: target '%s' needs a name, a unit and a reason\n",
			target ? target : "(null)");
		return -EINVAL;
	}
	t = json_pack("{s:s, s:o, s:o, s:s, s:o, s:s}", "target", target,
		      "measured", number_or_null(measured), "limit", number_or_null(limit),
		      "unit", unit,
		      "met", met == TARGET_NOT_JUDGED ? json_null() : json_boolean(met == TARGET_MET),
		      "why", why);
	if (!t || json_array_append_new(o->targets, t))
		return -ENOMEM;
	return out_write(o);
}

int out_close(struct out *o, const char *failure)
{
	int err;

	set_status(o, failure);
	err = out_write(o);
	out_free(o);
	return err;
}
