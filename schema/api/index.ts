export * from "./audit";
export * from "./auth";
export * from "./common";
export * from "./members";
export * from "./preferences";
