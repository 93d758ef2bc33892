fn a() {
    let x = ;
}
