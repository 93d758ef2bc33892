const x = <div>;
function f() {
}
