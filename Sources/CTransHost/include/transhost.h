/*
 * transhost.h — the public C ABI between the transhost host and animator plugins.
 *
 * This is the only header a plugin includes. It is plain C11 (and compiles as C++) and uses no
 * host types: every host object is an opaque handle, and every host service is a function
 * pointer in the table the host hands to the plugin's init.
 *
 * Versioning (the full rules: docs/abi.md):
 *   - A plugin exports exactly one symbol, TH_ENTRY_SYMBOL ("transhost_plugin_entry"), a const
 *     th_plugin_entry whose FIRST two fields are the ABI major and minor it was built against.
 *     The host reads them straight from the file before any plugin code runs.
 *   - Rule: plugin major == host major, and plugin minor <= host minor.
 *   - Structs only grow by appending fields; each starts with a struct_size so the reader can
 *     tell which fields exist. Larger additions come as named, revisioned extensions returned by
 *     th_host_api.get_extension("transhost.name/1"), which returns NULL when unsupported.
 *
 * Threads: the host calls a plugin only from its main thread, and every host callback must be
 * called from inside a host call (init, an animator callback, an animation or completion block)
 * on that thread. Tags below: [main-thread] = call only on the host's main thread. A callback
 * made on any other thread is refused (it returns NULL or 0 and does nothing) and reported as an
 * off-thread-call contract breach of the plugin.
 *
 * Crashes: plugin code runs in a playback worker process, never in the host. A plugin that
 * crashes, hangs or calls exit() while loading is reported and skipped; one that does so while
 * it animates costs only its own transitions: the host names the plugin, the call and the signal
 * (or timeout, or exit status), plays the default transition instead, makes every other output
 * and exits with code 3. What a plugin prints to stdout or stderr becomes a log line of the run
 * named by the plugin; it never reaches the host's stdout. (With run --isolation none the plugin
 * runs inside the host, and a crash while animating stops the run with exit code 3.)
 *
 * Ownership: handles (th_view, th_controller, th_context) are owned by the host. A handle stays
 * valid for the whole run; using a handle after its object was discarded is reported as a
 * contract breach and ignored, never a crash. Strings the host returns are owned by the host and
 * valid until the call that returned them returns, unless noted. Strings and structs a plugin
 * passes in are copied by the host before the call returns.
 */
#ifndef TRANSHOST_H
#define TRANSHOST_H

#include <stddef.h>
#include <stdint.h>
#include <math.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TH_ABI_MAJOR 1
#define TH_ABI_MINOR 3

/* The name of the single symbol every plugin exports. */
#define TH_ENTRY_SYMBOL "transhost_plugin_entry"

#if defined(__GNUC__) || defined(__clang__)
#define TH_EXPORT __attribute__((visibility("default")))
#else
#define TH_EXPORT
#endif

/* ---- Opaque handles (owned by the host) ---------------------------------------------------- */
typedef struct th_view th_view;             /* a view (UIView + its CALayer) */
typedef struct th_controller th_controller; /* a view controller */
typedef struct th_context th_context;       /* a transition context */

/* ---- Plain value types ---------------------------------------------------------------------- */
typedef struct th_point { double x, y; } th_point;
typedef struct th_size { double width, height; } th_size;
typedef struct th_rect { double x, y, width, height; } th_rect;

/* CGAffineTransform: (x, y) -> (a x + c y + tx, b x + d y + ty). */
typedef struct th_affine { double a, b, c, d, tx, ty; } th_affine;

/* CATransform3D, row-vector convention (p' = p M), translation in m41..m43, m34 = -1/d. */
typedef struct th_transform3d {
    double m11, m12, m13, m14;
    double m21, m22, m23, m24;
    double m31, m32, m33, m34;
    double m41, m42, m43, m44;
} th_transform3d;

/* UIEdgeInsets. */
typedef struct th_insets { double top, left, bottom, right; } th_insets;

/* A straight-alpha RGBA colour, components in [0, 1]. */
typedef struct th_color { double red, green, blue, alpha; } th_color;

typedef enum th_container {
    TH_CONTAINER_NAVIGATION = 1,
    TH_CONTAINER_TAB = 2,
    TH_CONTAINER_MODAL = 3
} th_container;

typedef enum th_operation {
    TH_OP_PUSH = 1,
    TH_OP_POP = 2,
    TH_OP_SELECT = 3,
    TH_OP_PRESENT = 4,
    TH_OP_DISMISS = 5
} th_operation;

/* UITransitionContextFromViewControllerKey / ToViewControllerKey. */
typedef enum th_context_key {
    TH_KEY_FROM = 0,
    TH_KEY_TO = 1
} th_context_key;

/* UIViewAnimationOptions: the bits transhost honours (same values as UIKit). */
#define TH_ANIM_BEGIN_FROM_CURRENT_STATE (1u << 2)
#define TH_ANIM_OVERRIDE_INHERITED_DURATION (1u << 5)
#define TH_ANIM_OVERRIDE_INHERITED_CURVE (1u << 6)
#define TH_ANIM_CURVE_EASE_IN_OUT (0u << 16) /* the default */
#define TH_ANIM_CURVE_EASE_IN (1u << 16)
#define TH_ANIM_CURVE_EASE_OUT (2u << 16)
#define TH_ANIM_CURVE_LINEAR (3u << 16)
#define TH_ANIM_CURVE_MASK (3u << 16)

/* UIViewKeyframeAnimationOptions calculation modes (ABI 1.1, same values as UIKit). */
#define TH_KEYFRAME_CALC_LINEAR (0u << 10) /* the default */
#define TH_KEYFRAME_CALC_DISCRETE (1u << 10)
#define TH_KEYFRAME_CALC_PACED (2u << 10)
#define TH_KEYFRAME_CALC_CUBIC (3u << 10)
#define TH_KEYFRAME_CALC_CUBIC_PACED (4u << 10)

/* Parameters of one animation block (UIView animateWithDuration:delay:options:...). */
typedef struct th_animation_params {
    uint32_t struct_size; /* sizeof(th_animation_params) as the plugin compiled it */
    double duration;      /* seconds, >= 0 */
    double delay;         /* seconds, >= 0 */
    uint32_t options;     /* TH_ANIM_* bits */
} th_animation_params;

/* Called once, synchronously, inside animate(): property changes made here become animations
 * from the presentation value to the new model value. user is the pointer given to animate.
 * [main-thread] */
typedef void (*th_animations_fn)(void *user);
/* Called once, later on virtual time, when every animation of the block has ended; finished is
 * 1 unless the animations were removed or replaced before they ended. After it returns the host
 * never uses user again. [main-thread] */
typedef void (*th_completion_fn)(int finished, void *user);

/* ---- ABI 1.2 value types ------------------------------------------------------------------ */

/* A controller's relatives (presentingViewController, presentedViewController,
 * navigationController, tabBarController, parent). */
typedef enum th_controller_relation {
    TH_RELATION_PRESENTING = 0,
    TH_RELATION_PRESENTED = 1,
    TH_RELATION_NAVIGATION = 2,
    TH_RELATION_TAB = 3,
    TH_RELATION_PARENT = 4
} th_controller_relation;

/* UIModalPresentationStyle (same values as UIKit). */
#define TH_PRESENTATION_FULL_SCREEN 0
#define TH_PRESENTATION_CUSTOM 4
#define TH_PRESENTATION_OVER_FULL_SCREEN 5

/* UIViewAnimationOptions transitions (same values as UIKit), for view_transition. */
#define TH_ANIM_TRANSITION_NONE (0u << 20)
#define TH_ANIM_TRANSITION_FLIP_FROM_LEFT (1u << 20)
#define TH_ANIM_TRANSITION_FLIP_FROM_RIGHT (2u << 20)
#define TH_ANIM_TRANSITION_CURL_UP (3u << 20)
#define TH_ANIM_TRANSITION_CURL_DOWN (4u << 20)
#define TH_ANIM_TRANSITION_CROSS_DISSOLVE (5u << 20)
#define TH_ANIM_TRANSITION_FLIP_FROM_TOP (6u << 20)
#define TH_ANIM_TRANSITION_FLIP_FROM_BOTTOM (7u << 20)
#define TH_ANIM_TRANSITION_MASK (7u << 20)

/* UIGestureRecognizer kinds and states (states have UIKit's values). */
#define TH_GESTURE_PAN 1u
#define TH_GESTURE_SCREEN_EDGE_PAN 2u
typedef enum th_gesture_state {
    TH_GESTURE_POSSIBLE = 0,
    TH_GESTURE_BEGAN = 1,
    TH_GESTURE_CHANGED = 2,
    TH_GESTURE_ENDED = 3,
    TH_GESTURE_CANCELLED = 4,
    TH_GESTURE_FAILED = 5
} th_gesture_state;

/* One gesture event: translation since the gesture began and velocity (points per second), both
 * in window coordinates, and the touch location in the window. */
typedef struct th_gesture_event {
    uint32_t struct_size;
    th_gesture_state state;
    th_point translation;
    th_point velocity;
    th_point location;
} th_gesture_event;

/* Called when a scripted gesture reaches a recognizer a plugin attached; user is the plugin's.
 * [main-thread] */
typedef void (*th_gesture_fn)(const th_gesture_event *event, void *user);

typedef enum th_log_level { TH_LOG_DEBUG = 0, TH_LOG_INFO = 1, TH_LOG_WARNING = 2, TH_LOG_ERROR = 3 } th_log_level;

/* ---- ABI 1.3 (layers and Core Animation): value types ------------------------------------ */

/* A standalone layer (CALayer, CAShapeLayer, CAGradientLayer) or a view's own layer
 * (view_layer). Owned by the host; valid for the whole run. */
typedef struct th_layer th_layer;

/* layer_create kinds. */
#define TH_LAYER_PLAIN 0u
#define TH_LAYER_SHAPE 1u
#define TH_LAYER_GRADIENT 2u

/* One path element (CGPathElement): points[0] is the end point, points[1] and points[2] the
 * control points of a quadratic (one) or cubic (two) curve. */
#define TH_PATH_MOVE 0u
#define TH_PATH_LINE 1u
#define TH_PATH_QUAD 2u
#define TH_PATH_CUBIC 3u
#define TH_PATH_CLOSE 4u
typedef struct th_path_element {
    uint32_t kind; /* TH_PATH_* */
    th_point points[3];
} th_path_element;

/* The kinds of a layer value. */
#define TH_VALUE_NUMBER 1u    /* numbers[0] (also 0/1 for flags) */
#define TH_VALUE_POINT 2u     /* numbers[0..1] */
#define TH_VALUE_SIZE 3u      /* numbers[0..1] */
#define TH_VALUE_RECT 4u      /* numbers[0..3]: x, y, width, height */
#define TH_VALUE_TRANSFORM 5u /* numbers[0..15]: m11 ... m44 */
#define TH_VALUE_COLOR 6u     /* numbers[0..3]: r, g, b, a; is_null: no colour */
#define TH_VALUE_PATH 7u      /* elements; is_null: no path */
#define TH_VALUE_COLORS 8u    /* count / 4 colours, r, g, b, a each */
#define TH_VALUE_NUMBERS 9u   /* count numbers; is_null: no array */
#define TH_VALUE_STRING 10u   /* string (fillRule, lineCap, lineJoin, name) */

/* A property value (what CABasicAnimation's fromValue carries, or what a layer property holds).
 * Plugins' pointers are read during the call only; values the host returns point into host
 * storage valid until the next layer_value call. */
typedef struct th_layer_value {
    uint32_t struct_size;
    uint32_t kind;   /* TH_VALUE_* */
    int is_null;
    const double *numbers;
    uint64_t count;
    const th_path_element *elements;
    uint64_t element_count;
    const char *string;
} th_layer_value;

/* CAMediaTimingFillMode. */
#define TH_FILL_REMOVED 0u
#define TH_FILL_FORWARDS 1u
#define TH_FILL_BACKWARDS 2u
#define TH_FILL_BOTH 3u

/* Explicit animation kinds. */
#define TH_CA_BASIC 0u
#define TH_CA_KEYFRAME 1u
#define TH_CA_SPRING 2u
#define TH_CA_GROUP 3u

/* CAKeyframeAnimation.rotationMode. */
#define TH_ROTATION_NONE 0u
#define TH_ROTATION_AUTO 1u
#define TH_ROTATION_AUTO_REVERSE 2u

/* An explicit animation (CABasicAnimation, CAKeyframeAnimation, CASpringAnimation,
 * CAAnimationGroup) as layer_add_animation copies it. Unused fields are 0 / NULL. */
typedef struct th_layer_animation {
    uint32_t struct_size;
    uint32_t kind;            /* TH_CA_* */
    const char *key_path;     /* "position", "transform.rotation.z", "path", ...; NULL in a group */
    double duration;          /* 0: 0.25 s */
    double begin_time;        /* 0: now; else media_time() seconds (in a group: after its start) */
    double speed;             /* 1 is normal speed */
    double time_offset;
    double repeat_count;      /* 0: once; INFINITY: forever */
    double repeat_duration;
    int autoreverses;
    int removed_on_completion;
    int additive;
    uint32_t fill_mode;       /* TH_FILL_* */
    int has_timing_function;  /* 0: linear */
    double timing_function[4]; /* control points x1, y1, x2, y2 */
    /* basic and spring */
    const th_layer_value *from, *to, *by; /* NULL: not set */
    /* spring */
    double mass, stiffness, damping, initial_velocity;
    /* keyframe */
    const th_layer_value *values;
    uint64_t value_count;
    const double *key_times;          /* NULL: even (or paced) */
    uint64_t key_time_count;
    const double *timing_functions;   /* 4 numbers per segment; NULL: linear segments */
    uint64_t timing_function_count;   /* functions, not numbers */
    uint32_t calculation_mode;        /* TH_KEYFRAME_CALC_* */
    uint32_t rotation_mode;           /* TH_ROTATION_* */
    const th_path_element *path;      /* a path to move along (key path "position"); NULL: values */
    uint64_t path_count;
    /* group */
    const struct th_layer_animation *const *animations;
    uint64_t animation_count;
} th_layer_animation;

/* An animation's delegate (CAAnimationDelegate): event 0 is animationDidStart, 1 is
 * animationDidStop (finished is 1 when it ran to its end, 0 when it was removed first). Called
 * on virtual time; after the stop the host never uses user again. [main-thread] */
typedef void (*th_layer_animation_fn)(int event, int finished, void *user);
/* A CATransaction completion block; called once. [main-thread] */
typedef void (*th_transaction_fn)(void *user);

/* ---- The host callback table ---------------------------------------------------------------
 * Handed to the plugin's init; valid until deinit returns. Fields are only ever appended; check
 * struct_size (or abi_minor) before using a field newer than your build's header. */
typedef struct th_host_api {
    uint32_t struct_size;
    uint32_t abi_major;
    uint32_t abi_minor;

    /* Returns the extension table named id ("transhost.name/1"), or NULL when the host does not
     * support it. The table is owned by the host and valid until deinit. [main-thread] */
    const void *(*get_extension)(const char *id);

    /* Writes a message to the host's log, prefixed with the plugin's name. msg is copied. [main-thread] */
    void (*log)(th_log_level level, const char *msg);

    /* -- Transition context (UIViewControllerContextTransitioning) -- */
    /* The from or to controller; never NULL during a transition. [main-thread] */
    th_controller *(*context_controller)(th_context *ctx, th_context_key key);
    /* The from or to controller's root view. [main-thread] */
    th_view *(*context_view)(th_context *ctx, th_context_key key);
    /* The container view the animation happens in. [main-thread] */
    th_view *(*context_container)(th_context *ctx);
    /* TH_CONTAINER_* and TH_OP_* of this transition. [main-thread] */
    th_container (*context_container_kind)(th_context *ctx);
    th_operation (*context_operation)(th_context *ctx);
    /* 1 or 0. [main-thread] */
    int (*context_is_animated)(th_context *ctx);
    int (*context_is_interactive)(th_context *ctx);
    int (*context_transition_was_cancelled)(th_context *ctx);
    /* initialFrameForViewController / finalFrameForViewController; a zero rect means "unknown",
     * as in UIKit. [main-thread] */
    th_rect (*context_initial_frame)(th_context *ctx, th_controller *vc);
    th_rect (*context_final_frame)(th_context *ctx, th_controller *vc);
    /* completeTransition: call exactly once, after the animations (usually in a completion).
     * A second call is ignored and reported as a contract breach. [main-thread] */
    void (*context_complete_transition)(th_context *ctx, int did_complete);

    /* -- Controllers -- */
    /* The controller's root view. [main-thread] */
    th_view *(*controller_view)(th_controller *vc);
    /* The controller's type name (its class). Host-owned, valid for the whole run. [main-thread] */
    const char *(*controller_type)(th_controller *vc);

    /* -- View hierarchy -- */
    /* addSubview: moves child to the top of parent's subviews. [main-thread] */
    void (*view_add_subview)(th_view *parent, th_view *child);
    /* insertSubview:atIndex: (index is clamped to [0, count]). [main-thread] */
    void (*view_insert_subview_at)(th_view *parent, th_view *child, int64_t index);
    /* insertSubview:aboveSubview: / belowSubview:. [main-thread] */
    void (*view_insert_subview_above)(th_view *parent, th_view *child, th_view *sibling);
    void (*view_insert_subview_below)(th_view *parent, th_view *child, th_view *sibling);
    /* removeFromSuperview. [main-thread] */
    void (*view_remove_from_superview)(th_view *view);
    /* The superview, or NULL. [main-thread] */
    th_view *(*view_superview)(th_view *view);

    /* -- View geometry and appearance (model values; inside an animations block a change
     *    becomes an animation). Non-finite values and negative sizes are rejected and reported
     *    as a breach naming the call. All of them: [main-thread] -- */
    /* frame (derived from bounds, center and anchorPoint; setting it ignores the transform). */
    th_rect (*view_frame)(th_view *view);
    void (*view_set_frame)(th_view *view, th_rect frame);
    th_rect (*view_bounds)(th_view *view);
    void (*view_set_bounds)(th_view *view, th_rect bounds);
    /* center (the layer's position). */
    th_point (*view_center)(th_view *view);
    void (*view_set_center)(th_view *view, th_point center);
    /* UIView.transform: reads the affine part of the layer's 3D transform; setting it replaces
     * the whole 3D transform with the affine one (m34 and the other 3D terms are reset, as
     * UIKit does). */
    th_affine (*view_transform)(th_view *view);
    void (*view_set_transform)(th_view *view, th_affine transform);
    /* alpha, clamped to [0, 1] (a value outside is reported). */
    double (*view_alpha)(th_view *view);
    void (*view_set_alpha)(th_view *view, double alpha);

    /* -- Animation -- */
    /* UIView animateWithDuration:delay:options:animations:completion:. Calls animations(user)
     * before it returns; calls completion(finished, user) later, on virtual time, exactly once.
     * completion may be NULL. user is the plugin's; the host never frees it. [main-thread] */
    void (*animate)(const th_animation_params *params, th_animations_fn animations,
                    th_completion_fn completion, void *user);

    /* ---- ABI 1.1: appended; present when struct_size covers them (abi_minor >= 1) ---- */

    /* -- Layer geometry and appearance (model values; animatable inside a block) -- */
    /* CALayer.anchorPoint, in unit coordinates of the bounds. Changing it keeps the position
     * (center) and moves the frame, as Core Animation does. [main-thread] */
    th_point (*view_anchor_point)(th_view *view);
    void (*view_set_anchor_point)(th_view *view, th_point anchor);
    /* CALayer.transform, the full 3D transform (view_set_transform replaces it with an affine one). [main-thread] */
    th_transform3d (*view_transform3d)(th_view *view);
    void (*view_set_transform3d)(th_view *view, th_transform3d transform);
    /* hidden, backgroundColor, cornerRadius (clamped to >= 0), clipsToBounds. [main-thread] */
    int (*view_hidden)(th_view *view);
    void (*view_set_hidden)(th_view *view, int hidden);
    void (*view_set_background_color)(th_view *view, th_color color);
    void (*view_set_corner_radius)(th_view *view, double radius);
    void (*view_set_clips_to_bounds)(th_view *view, int clips);

    /* -- Creating and finding views (handles owned by the host, valid for the run) -- */
    /* A new, empty view with this frame, not in any hierarchy. [main-thread] */
    th_view *(*view_create)(th_rect frame);
    /* snapshotViewAfterScreenUpdates: a frozen copy of the view's subtree (model values when
     * after_screen_updates is 1, what is on screen now when 0); frame (0, 0, w, h). [main-thread] */
    th_view *(*view_snapshot)(th_view *view, int after_screen_updates);
    /* resizableSnapshotViewFromRect:afterScreenUpdates:withCapInsets: the part of the view inside
     * rect (bounds coordinates), of size rect.size. Given another size later, its content
     * stretches; only the part inside cap_insets does, the caps keep their size. [main-thread] */
    th_view *(*view_resizable_snapshot)(th_view *view, th_rect rect, int after_screen_updates, th_insets cap_insets);
    /* The first view named name in root's subtree (root included, depth-first), or NULL. name is
     * copied. Scenario views carry the names their scenario gives them. [main-thread] */
    th_view *(*view_find_named)(th_view *root, const char *name);
    /* convertRect:toView: (to == NULL converts to the window). [main-thread] */
    th_rect (*view_convert_rect)(th_view *from, th_rect rect, th_view *to);
    /* Subviews, back to front. [main-thread] */
    int64_t (*view_subview_count)(th_view *view);
    th_view *(*view_subview_at)(th_view *view, int64_t index);
    /* bringSubviewToFront: / sendSubviewToBack: on child's superview. [main-thread] */
    void (*view_bring_to_front)(th_view *child);
    void (*view_send_to_back)(th_view *child);

    /* -- Animation -- */
    /* animateWithDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:... UIKit's
     * spring solver; damping_ratio in (0, 1], initial_velocity in distance fractions per second.
     * Same ownership and timing rules as animate. [main-thread] */
    void (*animate_spring)(const th_animation_params *params, double damping_ratio, double initial_velocity,
                           th_animations_fn animations, th_completion_fn completion, void *user);
    /* animateKeyframesWithDuration:delay:options:animations:completion:; options carry a
     * TH_KEYFRAME_CALC_* mode and optional curve bits (default ease-in-out over the whole
     * animation). Inside animations, call add_keyframe. [main-thread] */
    void (*animate_keyframes)(const th_animation_params *params, th_animations_fn animations,
                              th_completion_fn completion, void *user);
    /* addKeyframeWithRelativeStartTime:relativeDuration:animations: (both in [0, 1]); calls
     * animations(user) before it returns. Outside animate_keyframes the changes apply at once
     * and a warning is reported. [main-thread] */
    void (*add_keyframe)(double relative_start, double relative_duration, th_animations_fn animations, void *user);
    /* [layer removeAllAnimations]: their blocks complete with finished == 0. [main-thread] */
    void (*view_remove_all_animations)(th_view *view);

    /* ---- ABI 1.2: appended; present when struct_size covers them (abi_minor >= 2) ---- */

    /* -- Getters that read back the host's values -- */
    /* backgroundColor: returns 1 and fills *out when the view has one, 0 when it is nil. [main-thread] */
    int (*view_background_color)(th_view *view, th_color *out);
    /* backgroundColor = nil. [main-thread] */
    void (*view_clear_background_color)(th_view *view);
    double (*view_corner_radius)(th_view *view);
    int (*view_clips_to_bounds)(th_view *view);

    /* -- UIScreen.main: the scenario's device -- */
    th_rect (*screen_bounds)(void);
    double (*screen_scale)(void);

    /* -- Controllers -- */
    /* The relative, or NULL (a controller that is not presenting has no presented controller).
     * Navigation and tab containers are controllers too. [main-thread] */
    th_controller *(*controller_related)(th_controller *vc, th_controller_relation relation);
    /* A container's children: the navigation stack (bottom first) or the tabs. [main-thread] */
    int64_t (*controller_child_count)(th_controller *container);
    th_controller *(*controller_child_at)(th_controller *container, int64_t index);
    /* TH_PRESENTATION_* of the controller (how it is or would be presented). [main-thread] */
    int (*controller_presentation_style)(th_controller *vc);
    /* preferredContentSize (zero unless the scenario sets one). [main-thread] */
    th_size (*controller_preferred_content_size)(th_controller *vc);
    /* Starting operations, as UIKit's methods do: popViewControllerAnimated:,
     * pushViewController:animated:, dismissViewControllerAnimated: (on the presented controller
     * or its presenter), the tab's setSelectedIndex:. While a transition runs the operation is
     * queued behind it. Returns 1 when the operation was started or queued, 0 when it was
     * refused (the reason is logged). [main-thread] */
    int (*controller_pop)(th_controller *navigation, int animated);
    int (*controller_push)(th_controller *navigation, th_controller *vc, int animated);
    int (*controller_dismiss)(th_controller *vc, int animated);
    int (*controller_select)(th_controller *tabs, int64_t index, int animated);

    /* -- Transition context -- */
    /* presentationStyle (TH_PRESENTATION_*; full screen outside modal transitions). [main-thread] */
    int (*context_presentation_style)(th_context *ctx);
    /* targetTransform (identity: the host does not rotate). [main-thread] */
    th_affine (*context_target_transform)(th_context *ctx);
    /* updateInteractiveTransition: / finishInteractiveTransition / cancelInteractiveTransition
     * of an interactive transition (one a plugin's interaction controller drives); speed and
     * curve are the controller's completionSpeed and completionCurve (TH_ANIM_CURVE_*). Ignored
     * with a warning on a transition that is not interactive. [main-thread] */
    void (*context_update_interactive)(th_context *ctx, double percent);
    void (*context_finish_interactive)(th_context *ctx, double speed, uint32_t curve);
    void (*context_cancel_interactive)(th_context *ctx, double speed, uint32_t curve);

    /* -- Views -- */
    /* UIImageView.image: the view shows the scenario's image named name (a path relative to the
     * scenario, as its views' "image" fields are; ".png" may be left out), scaled to fill its
     * bounds; NULL clears it. An unknown name leaves the view empty and logs a warning. [main-thread] */
    void (*view_set_image)(th_view *view, const char *name);
    /* The view's name: the scenario's "name" of a scenario view (what view_find_named finds),
     * the controller's type for a root view, "" for an unnamed one. Host-owned, valid for the
     * run. The kit reads it as accessibilityIdentifier. [main-thread] */
    const char *(*view_name)(th_view *view);
    /* The image file the view shows (a scenario view's "image", or what view_set_image set), or
     * NULL. Host-owned, valid for the run. The kit sees such views as UIImageViews. [main-thread] */
    const char *(*view_image)(th_view *view);
    /* UIView transitionWithView: / transitionFromView:toView: with a TH_ANIM_TRANSITION_* in
     * params->options: the host snapshots container, calls animations(user) (changes apply at
     * once), and plays the transition between the before and after pictures over the duration;
     * completion runs once at the end. [main-thread] */
    void (*view_transition)(th_view *container, const th_animation_params *params, th_animations_fn animations,
                            th_completion_fn completion, void *user);
    /* addGestureRecognizer: the host calls handler(event, user) for each event of a scripted
     * gesture of this kind (TH_GESTURE_*) that reaches view; edge is the screen edge of a
     * screen-edge pan (1 top, 2 left, 4 bottom, 8 right, as UIRectEdge). [main-thread] */
    void (*view_add_gesture)(th_view *view, uint32_t kind, uint32_t edge, th_gesture_fn handler, void *user);

    /* ---- ABI 1.3 (layers and Core Animation): appended; present when abi_minor >= 3 ---- */

    /* -- Layers (docs/animation.md, "Layers") -- */
    /* A new standalone layer of a TH_LAYER_* kind, in no tree. [main-thread] */
    th_layer *(*layer_create)(uint32_t kind);
    /* The view's own layer: its values are the view's (bounds, position, opacity = alpha, ...).
     * [main-thread] */
    th_layer *(*view_layer)(th_view *view);
    /* Sets the model value of a property by Core Animation's key ("opacity", "path",
     * "shadowRadius", "hidden", "fillRule", ...; the list: docs/animation.md). Returns 1 when
     * stored, 0 (with a breach naming the key) for an unknown key, a value of the wrong kind or
     * a non-finite one. A standalone layer animates the change implicitly unless the
     * transaction disables actions; a view's layer changes at once (inside a UIView animation
     * block, its view properties animate as the view_set_* calls do). [main-thread] */
    int (*layer_set_value)(th_layer *layer, const char *key, const th_layer_value *value);
    /* Reads a property: the model value, or with presentation == 1 what the screen shows now.
     * Fills *out (pointing into host storage valid until the next call) and returns 1, or
     * returns 0 for an unknown key. [main-thread] */
    int (*layer_value)(th_layer *layer, const char *key, int presentation, th_layer_value *out);
    /* addSublayer / insertSublayer:atIndex: (clamped) / removeFromSuperlayer. parent may be a
     * view's layer. A cycle is refused with a breach. [main-thread] */
    void (*layer_add_sublayer)(th_layer *parent, th_layer *child);
    void (*layer_insert_sublayer_at)(th_layer *parent, th_layer *child, int64_t index);
    void (*layer_remove_from_superlayer)(th_layer *layer);
    /* The standalone sublayers, back to front (a view layer's subviews are not listed). [main-thread] */
    int64_t (*layer_sublayer_count)(th_layer *layer);
    th_layer *(*layer_sublayer_at)(th_layer *layer, int64_t index);
    /* layer.mask = mask (NULL clears it); the mask leaves any tree it was in. [main-thread] */
    void (*layer_set_mask)(th_layer *layer, th_layer *mask);

    /* -- Explicit animations -- */
    /* add(_:forKey:): copies anim (nested values, arrays and group members included); key may
     * be NULL. An animation already there under the key is removed (its delegate hears a stop
     * with finished 0). delegate may be NULL. Returns 1, or 0 with a breach for a malformed
     * animation. [main-thread] */
    int (*layer_add_animation)(th_layer *layer, const th_layer_animation *anim, const char *key,
                               th_layer_animation_fn delegate, void *user);
    /* removeAnimation(forKey:) / removeAllAnimations (delegates hear finished 0). [main-thread] */
    void (*layer_remove_animation)(th_layer *layer, const char *key);
    void (*layer_remove_all_animations)(th_layer *layer);
    /* animationKeys: count and the key at index (host-owned, valid until the next call). [main-thread] */
    int64_t (*layer_animation_count)(th_layer *layer);
    const char *(*layer_animation_key_at)(th_layer *layer, int64_t index);

    /* -- CATransaction and the clock -- */
    /* begin / commit; setAnimationDuration (>= 0), setAnimationTimingFunction (4 control point
     * numbers, NULL: the default), setDisableActions, setCompletionBlock (NULL clears it). Outside
     * begin/commit they apply to the implicit transaction, committed when the current host call
     * returns. [main-thread] */
    void (*transaction_begin)(void);
    void (*transaction_commit)(void);
    void (*transaction_set_duration)(double seconds);
    double (*transaction_duration)(void);
    void (*transaction_set_timing_function)(const double *control_points);
    void (*transaction_set_disable_actions)(int disable);
    int (*transaction_disable_actions)(void);
    void (*transaction_set_completion)(th_transaction_fn completion, void *user);
    /* CACurrentMediaTime(): the virtual clock, in seconds. [main-thread] */
    double (*media_time)(void);
} th_host_api;

/* ---- What the plugin provides ------------------------------------------------------------- */

/* One animator (UIViewControllerAnimatedTransitioning). Owned by the plugin; must stay valid
 * until the plugin's deinit. */
typedef struct th_animator {
    uint32_t struct_size;
    const char *id; /* matches an animator id in the manifest */
    /* transitionDuration:. Must be finite and >= 0. [main-thread] */
    double (*transition_duration)(const struct th_animator *self, th_context *ctx);
    /* animateTransition:. Must eventually call context_complete_transition once. [main-thread] */
    void (*animate_transition)(const struct th_animator *self, th_context *ctx);
    /* animationEnded: (optional, may be NULL). [main-thread] */
    void (*animation_ended)(const struct th_animator *self, int transition_completed);
    void *user; /* the plugin's own data */
} th_animator;

/* ---- ABI 1.2: delegates and interaction controllers ---------------------------------------- */

/* What a delegate is asked about: one transition about to start. */
typedef struct th_transition_request {
    uint32_t struct_size;
    th_container container;
    th_operation operation;
    th_controller *from;
    th_controller *to;
    /* The navigation or tab controller, or the presenting controller of a modal transition. */
    th_controller *container_controller;
    /* presenting and source of animationControllerForPresentedController:presentingController:
     * sourceController: (NULL outside a present). */
    th_controller *presenting;
    th_controller *source;
} th_transition_request;

/* An interaction controller (UIViewControllerInteractiveTransitioning). Owned by the plugin;
 * must stay valid until the transition ends. */
typedef struct th_interaction {
    uint32_t struct_size;
    /* wantsInteractiveStart: 0 runs the transition on its own. [main-thread] */
    int (*wants_interactive_start)(const struct th_interaction *self);
    /* startInteractiveTransition: called instead of the animator's animate_transition; the
     * context is interactive (its animations are paused until the plugin updates or finishes
     * it). animator is the one the delegate gave for this transition. [main-thread] */
    void (*start_interactive_transition)(const struct th_interaction *self, th_context *ctx, const th_animator *animator);
    void *user;
} th_interaction;

/* A delegate (UIViewControllerTransitioningDelegate, UINavigationControllerDelegate,
 * UITabBarControllerDelegate). Owned by the plugin; must stay valid until deinit. */
typedef struct th_delegate {
    uint32_t struct_size;
    const char *id; /* matches a delegate id in the manifest */
    /* The animator for this transition, or NULL for the default transition. The pointer must
     * stay valid until that animator's animation_ended returns. [main-thread] */
    const th_animator *(*animator_for)(const struct th_delegate *self, const th_transition_request *request);
    /* The interaction controller for this transition and animator, or NULL (may be NULL). [main-thread] */
    const th_interaction *(*interaction_for)(const struct th_delegate *self, const th_transition_request *request,
                                             const th_animator *animator);
    /* navigationController:willShowViewController:animated: (did == 0, before an animated
     * navigation transition this delegate's route decided) and ...didShow... (did == 1, after it
     * completed); request->to is the controller shown. May be NULL. [main-thread] */
    void (*navigation_show)(const struct th_delegate *self, const th_transition_request *request, int did, int animated);
    void *user;
} th_delegate;

/* The plugin's single exported symbol. abi_major and abi_minor come first and are read by the
 * host from the file, before any plugin code runs. */
typedef struct th_plugin_entry {
    uint32_t abi_major;   /* TH_ABI_MAJOR the plugin was built with */
    uint32_t abi_minor;   /* TH_ABI_MINOR the plugin was built with */
    uint32_t struct_size; /* sizeof(th_plugin_entry) */
    const char *name;     /* must equal the manifest's "name" */
    const char *version;  /* must equal the manifest's "version" */
    /* Called once after the ABI check. host stays valid until deinit. Return 0 on success;
     * anything else marks the plugin failed (the host then never calls it again). [main-thread] */
    int (*init)(const th_host_api *host);
    /* Called once before the host exits (not for plugins that failed init). [main-thread] */
    void (*deinit)(void);
    /* The animator with this id, or NULL. The pointer must stay valid until deinit. [main-thread] */
    const th_animator *(*get_animator)(const char *animator_id);
    /* ABI 1.2 (present when struct_size covers it; may be NULL): the delegate with this id, or
     * NULL. The pointer must stay valid until deinit. [main-thread] */
    const th_delegate *(*get_delegate)(const char *delegate_id);
} th_plugin_entry;

/* ---- 3D-transform helpers for C authors (CATransform3DMake..., row-vector convention) ---- */

static inline th_transform3d th_transform3d_identity(void) {
    th_transform3d t = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    return t;
}

/* a then b (CATransform3DConcat). */
static inline th_transform3d th_transform3d_concat(th_transform3d a, th_transform3d b) {
    const double *x = &a.m11, *y = &b.m11;
    double r[16];
    int i, j, k;
    for (i = 0; i < 4; i++)
        for (j = 0; j < 4; j++) {
            double sum = 0;
            for (k = 0; k < 4; k++) sum += x[i * 4 + k] * y[k * 4 + j];
            r[i * 4 + j] = sum;
        }
    th_transform3d t = {r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]};
    return t;
}

/* t then a translation (CATransform3DTranslate applies the translation first: it returns
 * translate x t). */
static inline th_transform3d th_transform3d_translate(th_transform3d t, double tx, double ty, double tz) {
    th_transform3d m = th_transform3d_identity();
    m.m41 = tx; m.m42 = ty; m.m43 = tz;
    return th_transform3d_concat(m, t);
}

/* CATransform3DScale: scale x t. */
static inline th_transform3d th_transform3d_scale(th_transform3d t, double sx, double sy, double sz) {
    th_transform3d m = th_transform3d_identity();
    m.m11 = sx; m.m22 = sy; m.m33 = sz;
    return th_transform3d_concat(m, t);
}

/* CATransform3DRotate: rotation by angle radians about the axis (x, y, z), then t; a zero axis
 * leaves t unchanged. Uses <math.h> (link with -lm). */
static inline th_transform3d th_transform3d_rotate(th_transform3d t, double angle, double x, double y, double z) {
    double len = sqrt(x * x + y * y + z * z);
    if (len == 0) return t;
    x /= len; y /= len; z /= len;
    double c = cos(angle), s = sin(angle), v = 1 - c;
    th_transform3d m = {v * x * x + c, v * x * y + z * s, v * x * z - y * s, 0,
                        v * x * y - z * s, v * y * y + c, v * y * z + x * s, 0,
                        v * x * z + y * s, v * y * z - x * s, v * z * z + c, 0,
                        0, 0, 0, 1};
    return th_transform3d_concat(m, t);
}

#ifdef __cplusplus
}
#endif

#endif /* TRANSHOST_H */
