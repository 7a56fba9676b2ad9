# gui_bench_damage.gdb — prints the region GTK repaints in each frame (GDK_DEBUG=updates is not
# available: Debian builds GTK without G_ENABLE_DEBUG). A breakpoint on gdk_draw_context_begin_frame
# prints the extents and the first rectangles of its region argument (in rsi on x86-64) with the
# monotonic time, to set against the run's start that gui_bench prints with GUI_BENCH_SHOW_START=1:
#   GUI_BENCH_SHOW_START=1 xvfb-run -a -s '-screen 0 1280x800x24' \
#     gdb -q -batch -x bench/gui_bench_damage.gdb --args build/bench/gui_bench latency 100 2
# The breakpoint slows every frame down: use it to see what is repainted, not how fast.
set pagination off
set confirm off
handle SIGPIPE nostop noprint
set breakpoint pending on
set $buf = 0
break gdk_draw_context_begin_frame
commands
silent
if $buf == 0
  set $buf = (int*)malloc(16)
end
set $reg = $rsi
set $n = (int)cairo_region_num_rectangles($reg)
call (void)cairo_region_get_extents($reg, $buf)
printf "DAMAGE t=%ld us n=%d extents x=%d y=%d w=%d h=%d\n", (long)g_get_monotonic_time(), $n, $buf[0], $buf[1], $buf[2], $buf[3]
set $i = 0
while $i < $n && $i < 12
  call (void)cairo_region_get_rectangle($reg, $i, $buf)
  printf "   rect %d %d %d %d\n", $buf[0], $buf[1], $buf[2], $buf[3]
  set $i = $i + 1
end
continue
end
run
quit
